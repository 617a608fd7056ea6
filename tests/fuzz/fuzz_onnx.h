/* fuzz_onnx.h - the one function the ONNX reader fuzzer and its replay test share. */
#ifndef NNPERF_FUZZ_ONNX_H
#define NNPERF_FUZZ_ONNX_H

#include <stddef.h>
#include <stdint.h>

/* Loads data as an ONNX model and, if it loads, analyzes it and renders JSON; frees everything. Bad input must
 * come back as an error status, never a crash: the sanitizers and libFuzzer judge the rest. Returns 0. */
int fuzz_onnx_one(const uint8_t *data, size_t size);

#endif
