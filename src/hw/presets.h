/* presets.h - the table of built-in platform presets, generated at build time by cmake/embed.cmake from
 * presets/NAME.yaml (one row per file, sorted by name; data is NUL-terminated, len excludes the NUL). */
#ifndef NNPERF_HW_PRESETS_H
#define NNPERF_HW_PRESETS_H

#include <stddef.h>

struct hw_preset_file {
    const char *name; /* file name without .yaml */
    const unsigned char *data;
    size_t len;
};

extern const struct hw_preset_file hw_preset_files[];
extern const int hw_n_preset_files;

#endif
