/* tensor.c - TensorProto: dtype, dims and a view of the data (raw_data, a typed repeated field, or an external
 * file whose location must stay inside the model's folder); and decoding the values of small tensors (shape
 * constants, axes, scales) on demand. Large tensors are never decoded: their bytes stay where they are. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load.h"

static const struct fspec tensor_fields[] = {{1, WV | WL, "dims"},
                                             {2, WV, "data_type"},
                                             {3, WL, "segment"},
                                             {4, W32 | WL, "float_data"},
                                             {5, WV | WL, "int32_data"},
                                             {6, WL, "string_data"},
                                             {7, WV | WL, "int64_data"},
                                             {8, WL, "name"},
                                             {9, WL, "raw_data"},
                                             {10, W64 | WL, "double_data"},
                                             {11, WV | WL, "uint64_data"},
                                             {12, WL, "doc_string"},
                                             {13, WL, "external_data"},
                                             {14, WV, "data_location"},
                                             {0, 0, NULL}};

enum nnperf_status ox_parse_tensor_proto(struct ld *L, const uint8_t *p, size_t n, struct ir_value *v,
                                         const char **name_out)
{
    const char *why;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    int ndims = 0;
    int has_data = 0, external = 0, repeated = 0;
    const char *tname = NULL; /* for messages: the name may come after the dims */
    FOR_FIELDS_CHECKED(r, f, "TensorProto", tensor_fields)
    {
        if (f.num == TP_DIMS) {
            if (f.wire == PB_VARINT)
                ndims++;
            else if (f.wire == PB_LEN) {
                int64_t c = pb_count_varints(f.data, f.len);
                if (c < 0) return ox_malformed(L, "TensorProto", "bad packed dims", f.data);
                ndims += (int)(c > NNPERF_MAX_RANK ? NNPERF_MAX_RANK + 1 : c);
            }
            if (ndims > NNPERF_MAX_RANK) ndims = NNPERF_MAX_RANK + 1; /* reported below; no int overflow */
        } else if (f.num == TP_NAME && f.wire == PB_LEN && !(tname = ox_str(L, &f))) {
            return ox_nomem(L);
        }
    }
    if (!tname) tname = v->name ? v->name : "";
    if (ndims > NNPERF_MAX_RANK)
        return diag_set(L->d, NNPERF_E_LIMIT, "tensor '%s' has more than %d dims", tname, NNPERF_MAX_RANK);
    v->type_kind = TK_TENSOR;
    v->rank = ndims;
    v->dims = ar_calloc(L->ar, (size_t)(ndims ? ndims : 1), sizeof(struct ir_dim));
    if (!v->dims) return ox_nomem(L);
    v->declared = 1;
    r = pb_make(p, n);
    int di = 0;
    FOR_FIELDS(r, f, "TensorProto")
    {
        switch (f.num) {
        case TP_DIMS:
            if (f.wire == PB_VARINT) {
                if ((int64_t)f.u < 0)
                    return diag_set(L->d, NNPERF_E_INVALID, "tensor '%s' has a negative dim (%lld)", tname,
                                    (long long)(int64_t)f.u);
                v->dims[di++] = ir_dim_known((int64_t)f.u);
            } else if (f.wire == PB_LEN) {
                struct pb q = pb_make(f.data, f.len);
                uint64_t x;
                int rc;
                while ((rc = pb_varint(&q, &x)) == 1) {
                    if ((int64_t)x < 0)
                        return diag_set(L->d, NNPERF_E_INVALID, "tensor '%s' has a negative dim (%lld)",
                                        tname, (long long)(int64_t)x);
                    v->dims[di++] = ir_dim_known((int64_t)x);
                }
                if (rc < 0) return ox_malformed(L, "TensorProto", "bad packed dims", f.data);
            }
            break;
        case TP_DTYPE:
            if (f.wire == PB_VARINT) v->dtype = f.u < DT_COUNT ? (int)f.u : DT_UNDEFINED;
            break;
        case TP_NAME:
            if (f.wire == PB_LEN && name_out) *name_out = tname;
            break;
        case TP_RAW:
            if (f.wire == PB_LEN) {
                v->enc = DE_RAW;
                v->data = f.data;
                v->data_len = f.len;
                has_data = 1;
            }
            break;
        case TP_FLOAT:
        case TP_INT32:
        case TP_INT64:
        case TP_DOUBLE:
        case TP_UINT64:
            if (f.wire == PB_LEN) {
                if (has_data && v->data_len && f.len) break; /* keep the first non-empty field */
                v->enc = (f.num == TP_FLOAT) ? DE_FIXED32 : (f.num == TP_DOUBLE) ? DE_FIXED64 : DE_VARINT;
                v->data = f.data;
                v->data_len = f.len;
                has_data = 1;
            } else {
                repeated = 1; /* unpacked repeated scalars */
            }
            break;
        case TP_STRING: has_data = 1; break;
        case TP_LOCATION:
            if (f.wire == PB_VARINT && f.u == 1) external = 1;
            break;
        case TP_EXTERNAL:
            if (f.wire == PB_LEN) {
                struct pb q = pb_make(f.data, f.len);
                struct pb_field g;
                const char *key = NULL, *val = NULL;
                FOR_FIELDS(q, g, "StringStringEntryProto")
                {
                    if (g.wire != PB_LEN) continue;
                    if (g.num == 1)
                        key = ox_str(L, &g);
                    else if (g.num == 2)
                        val = ox_str(L, &g);
                }
                if (!key || !val) break;
                if (!strcmp(key, "location"))
                    v->ext_location = val;
                else if (!strcmp(key, "offset") || !strcmp(key, "length")) {
                    char *end;
                    unsigned long long x = strtoull(val, &end, 10);
                    if (!*val || *end || val[0] == '-')
                        return diag_set(L->d, NNPERF_E_PARSE,
                                        "tensor '%s': external data %s '%s' is not a number", tname, key,
                                        val);
                    if (!strcmp(key, "offset"))
                        v->ext_offset = x;
                    else {
                        v->ext_length = x;
                        v->ext_has_length = 1;
                    }
                }
            }
            break;
        default: break;
        }
    }
    if (external) {
        if (!v->ext_location)
            return diag_set(L->d, NNPERF_E_PARSE, "external tensor '%s' has no 'location'", tname);
        v->enc = DE_EXTERNAL;
        const char *loc = v->ext_location;
        /* refuse paths that escape the model's directory: absolute, or with a ".." component */
        int escapes = loc[0] == '/' || loc[0] == '\\' || (loc[0] && loc[1] == ':');
        for (const char *s = loc; *s && !escapes; s++)
            if (s[0] == '.' && s[1] == '.' && (s == loc || s[-1] == '/' || s[-1] == '\\') &&
                (s[2] == 0 || s[2] == '/' || s[2] == '\\'))
                escapes = 1;
        if (escapes)
            return diag_set(L->d, NNPERF_E_INVALID,
                            "tensor '%s': external data location '%s' escapes the model's directory", tname,
                            loc);
    } else if (repeated && !has_data) {
        v->enc = DE_REPEATED;
        v->tensor_pb = p;
        v->tensor_pb_len = n;
    }
    v->flags |= 0;
    return NNPERF_OK;
}

enum nnperf_status ox_parse_tensor(struct ir_model *m, const uint8_t *buf, size_t len, struct ir_value *v,
                                   struct diag *d)
{
    struct ld L0 = {m, &m->ar, d, 0};
    const char *name = NULL;
    enum nnperf_status st = ox_parse_tensor_proto(&L0, buf, len, v, &name);
    if (!st && name && !v->name) v->name = name;
    return st;
}

static double half_to_double(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0)
        v = ldexp(m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexp(m + 1024, e - 25);
    return s ? -v : v;
}

static double bf16_to_double(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t x = 0;
    for (int i = n - 1; i >= 0; i--) x = (x << 8) | p[i];
    return x;
}

/* element k of little-endian packed data of dtype dt -> int or double */
static void raw_elem(int dt, const uint8_t *p, int64_t k, int64_t *iv, double *fv)
{
    switch (dt) {
    case DT_FLOAT: {
        uint32_t u = (uint32_t)le(p + 4 * k, 4);
        float f;
        memcpy(&f, &u, 4);
        *fv = f;
        break;
    }
    case DT_DOUBLE: {
        uint64_t u = le(p + 8 * k, 8);
        double d;
        memcpy(&d, &u, 8);
        *fv = d;
        break;
    }
    case DT_FLOAT16: *fv = half_to_double((uint16_t)le(p + 2 * k, 2)); break;
    case DT_BFLOAT16: *fv = bf16_to_double((uint16_t)le(p + 2 * k, 2)); break;
    case DT_INT8: *iv = (int8_t)p[k]; break;
    case DT_UINT8: *iv = p[k]; break;
    case DT_BOOL: *iv = p[k] != 0; break;
    case DT_INT16: *iv = (int16_t)le(p + 2 * k, 2); break;
    case DT_UINT16: *iv = (uint16_t)le(p + 2 * k, 2); break;
    case DT_INT32: *iv = (int32_t)le(p + 4 * k, 4); break;
    case DT_UINT32: *iv = (uint32_t)le(p + 4 * k, 4); break;
    case DT_INT64: *iv = (int64_t)le(p + 8 * k, 8); break;
    case DT_UINT64: *iv = (int64_t)le(p + 8 * k, 8); break;
    case DT_INT4: {
        int nib = (p[k / 2] >> (4 * (k % 2))) & 0xf;
        *iv = nib >= 8 ? nib - 16 : nib;
        break;
    }
    case DT_UINT4: *iv = (p[k / 2] >> (4 * (k % 2))) & 0xf; break;
    default:
        *fv = 0;
        *iv = 0;
        break;
    }
}

static int propagated(int dt)
{
    return ir_dtype_is_int(dt) || dt == DT_FLOAT || dt == DT_DOUBLE || dt == DT_FLOAT16 || dt == DT_BFLOAT16;
}

/* Reads a typed field (varint or fixed) element k of the stored sequence into iv/fv. */
static enum nnperf_status decode_typed(struct ir_value *v, const uint8_t *p, size_t n, int enc, int64_t numel,
                                       int64_t *ibuf, double *fbuf, struct diag *d)
{
    int isf = ir_dtype_is_float(v->dtype);
    /* float_data/double_data hold floating point only: an integer tensor stored there would leave ibuf unset */
    if ((enc == DE_FIXED32 || enc == DE_FIXED64) && !isf)
        return diag_set(d, NNPERF_E_INVALID, "tensor '%s': %s is not valid for a %s tensor", v->name,
                        enc == DE_FIXED32 ? "float_data" : "double_data", ir_dtype_name(v->dtype));
    if (enc == DE_FIXED32) {
        if (n < (size_t)numel * 4)
            return diag_set(d, NNPERF_E_INVALID, "tensor '%s' has %zu float_data bytes, expected %lld",
                            v->name, n, (long long)numel * 4);
        for (int64_t k = 0; k < numel; k++) raw_elem(DT_FLOAT, p, k, &ibuf[k], &fbuf[k]);
    } else if (enc == DE_FIXED64) {
        if (n < (size_t)numel * 8)
            return diag_set(d, NNPERF_E_INVALID, "tensor '%s' has too few double_data bytes", v->name);
        for (int64_t k = 0; k < numel; k++) raw_elem(DT_DOUBLE, p, k, &ibuf[k], &fbuf[k]);
    } else {
        struct pb r = pb_make(p, n);
        for (int64_t k = 0; k < numel; k++) {
            uint64_t x;
            if (pb_varint(&r, &x) != 1)
                return diag_set(d, NNPERF_E_INVALID, "tensor '%s' has fewer values than its %lld elements",
                                v->name, (long long)numel);
            if (v->dtype == DT_FLOAT16)
                fbuf[k] = half_to_double((uint16_t)x);
            else if (v->dtype == DT_BFLOAT16)
                fbuf[k] = bf16_to_double((uint16_t)x);
            else if (isf)
                fbuf[k] = (double)(int64_t)x; /* float tensor in an integer field: lenient */
            else if (v->dtype == DT_INT32 || v->dtype == DT_INT16 || v->dtype == DT_INT8)
                ibuf[k] = (int32_t)x;
            else if (v->dtype == DT_INT4)
                ibuf[k] = (int8_t)((x & 0xf) >= 8 ? (int)(x & 0xf) - 16 : (int)(x & 0xf));
            else
                ibuf[k] = (int64_t)x;
        }
    }
    return NNPERF_OK;
}

enum nnperf_status ox_decode_values(struct ir_model *m, struct ir_value *v, struct diag *d)
{
    int64_t numel;
    if (v->iv || v->fv || v->enc == DE_NONE || !propagated(v->dtype)) return NNPERF_OK;
    if (!ir_numel(v, &numel) || numel > NNPERF_MAX_CONST_ELEMS) return NNPERF_OK;
    int64_t ibuf[NNPERF_MAX_CONST_ELEMS];
    static _Thread_local double fbuf[NNPERF_MAX_CONST_ELEMS];
    int bits = ir_dtype_bits(v->dtype);
    size_t need = (size_t)((numel * bits + 7) / 8);
    uint8_t ext[NNPERF_MAX_CONST_ELEMS * 8];
    const uint8_t *p = v->data;
    size_t n = v->data_len;
    int enc = v->enc;
    if (enc == DE_EXTERNAL) {
        if (v->ext_has_length && v->ext_length < need)
            return diag_set(d, NNPERF_E_INVALID,
                            "tensor '%s': external length %llu is less than the %zu bytes needed", v->name,
                            (unsigned long long)v->ext_length, need);
        char path[4096];
        int w = snprintf(path, sizeof path, "%s/%s", m->dir ? m->dir : ".", v->ext_location);
        if (w < 0 || (size_t)w >= sizeof path)
            return diag_set(d, NNPERF_E_IO, "tensor '%s': external data path too long", v->name);
        if (v->ext_offset > (uint64_t)INT64_MAX - need)
            return diag_set(d, NNPERF_E_INVALID, "tensor '%s': external data offset %llu is out of range",
                            v->name, (unsigned long long)v->ext_offset);
        /* O_NONBLOCK: a location naming a FIFO must not hang the load; only regular files are read */
        int fd = open(path, O_RDONLY | O_NONBLOCK);
        if (fd < 0)
            return diag_set(d, NNPERF_E_IO, "tensor '%s': cannot open external data '%s': %s", v->name, path,
                            strerror(errno));
        struct stat sb;
        if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
            close(fd);
            return diag_set(d, NNPERF_E_IO, "tensor '%s': external data '%s' is not a regular file", v->name,
                            path);
        }
        ssize_t got = pread(fd, ext, need, (off_t)v->ext_offset);
        close(fd);
        if (got < 0 || (size_t)got != need)
            return diag_set(d, NNPERF_E_IO,
                            "tensor '%s': external data '%s' is shorter than offset %llu + %zu bytes",
                            v->name, path, (unsigned long long)v->ext_offset, need);
        p = ext;
        n = need;
        enc = DE_RAW;
    }
    if (enc == DE_REPEATED) {
        /* unpacked repeated typed field: gather the varints/fixed values of the data field in order */
        struct pb r = pb_make(v->tensor_pb, v->tensor_pb_len);
        struct pb_field f;
        const char *why;
        int64_t k = 0;
        int rc;
        int isf = ir_dtype_is_float(v->dtype);
        while ((rc = pb_next(&r, &f, &why)) == 1 && k < numel) {
            if ((f.num == 4 || f.num == 10) && !isf) /* as in decode_typed: ibuf would be left unset */
                return diag_set(d, NNPERF_E_INVALID, "tensor '%s': %s is not valid for a %s tensor", v->name,
                                f.num == 4 ? "float_data" : "double_data", ir_dtype_name(v->dtype));
            if (f.num == 4 && f.wire == PB_I32)
                raw_elem(DT_FLOAT, f.data, 0, &ibuf[k], &fbuf[k]), k++;
            else if (f.num == 10 && f.wire == PB_I64)
                raw_elem(DT_DOUBLE, f.data, 0, &ibuf[k], &fbuf[k]), k++;
            else if ((f.num == 5 || f.num == 7 || f.num == 11) && f.wire == PB_VARINT) {
                uint64_t x = f.u;
                if (v->dtype == DT_FLOAT16)
                    fbuf[k] = half_to_double((uint16_t)x);
                else if (v->dtype == DT_BFLOAT16)
                    fbuf[k] = bf16_to_double((uint16_t)x);
                else if (isf)
                    fbuf[k] = (double)(int64_t)x;
                else if (f.num == 5)
                    ibuf[k] = (int32_t)x;
                else
                    ibuf[k] = (int64_t)x;
                k++;
            }
        }
        if (rc < 0) return diag_set(d, NNPERF_E_PARSE, "tensor '%s': %s", v->name, why);
        if (k < numel)
            return diag_set(d, NNPERF_E_INVALID, "tensor '%s' has %lld values, expected %lld", v->name,
                            (long long)k, (long long)numel);
    } else if (enc == DE_RAW) {
        if (n < need)
            return diag_set(d, NNPERF_E_INVALID, "tensor '%s' has %zu bytes of raw data, expected %zu",
                            v->name, n, need);
        for (int64_t k = 0; k < numel; k++) raw_elem(v->dtype, p, k, &ibuf[k], &fbuf[k]);
    } else {
        enum nnperf_status st = decode_typed(v, p, n, enc, numel, ibuf, fbuf, d);
        if (st) return st;
    }
    if (ir_dtype_is_int(v->dtype)) {
        struct ir_ival *iv = ar_calloc(&m->ar, (size_t)(numel ? numel : 1), sizeof *iv);
        if (!iv) return diag_set(d, NNPERF_E_NOMEM, "out of memory");
        for (int64_t k = 0; k < numel; k++) iv[k] = ir_ival_known(ibuf[k]);
        v->iv = iv;
    } else {
        double *fv = ar_calloc(&m->ar, (size_t)(numel ? numel : 1), sizeof *fv);
        if (!fv) return diag_set(d, NNPERF_E_NOMEM, "out of memory");
        memcpy(fv, fbuf, (size_t)numel * sizeof *fv);
        v->fv = fv;
    }
    v->nv = numel;
    return NNPERF_OK;
}
