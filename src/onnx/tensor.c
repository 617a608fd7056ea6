/* tensor.c - TensorProto: dtype, dims and a view of the data (raw_data, a typed repeated field, or an external
 * file whose location must stay inside the model's folder); and decoding the values of small tensors (shape
 * constants, axes, scales) on demand. Large tensors are never decoded: their bytes stay where they are. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load.h"

static const struct fspec tensor_fields[] = {
    [1] = {WV | WL, "dims"},         [2] = {WV, "data_type"},
    [3] = {WL, "segment"},           [4] = {W32 | WL, "float_data"},
    [5] = {WV | WL, "int32_data"},   [6] = {WL, "string_data"},
    [7] = {WV | WL, "int64_data"},   [8] = {WL, "name"},
    [9] = {WL, "raw_data"},          [10] = {W64 | WL, "double_data"},
    [11] = {WV | WL, "uint64_data"}, [12] = {WL, "doc_string"},
    [13] = {WL, "external_data"},    [14] = {WV, "data_location"},
};

/* "<what> '<name>': <message>" with the status st. */
static enum nnperf_status tensor_err(struct ld *L, enum nnperf_status st, const char *what, const char *name,
                                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static enum nnperf_status tensor_err(struct ld *L, enum nnperf_status st, const char *what, const char *name,
                                     const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    c_vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return diag_set(L->d, st, "%s '%s': %s", what, name, msg);
}

/* An external-data offset or length: decimal digits only, at most 2^62 (a file offset is an off_t; 2^62 leaves room
 * for offset + length). */
#define EXT_MAX ((uint64_t)1 << 62)
static enum nnperf_status ext_number(struct ld *L, const char *what, const char *name, const char *key,
                                     const char *val, uint64_t *out)
{
    uint64_t x = 0;
    int big = 0, digits = val[0] != 0;
    for (const char *s = val; *s && digits; s++) {
        digits = *s >= '0' && *s <= '9';
        unsigned dg = (unsigned)(*s - '0');
        if (!digits) break;
        if (big || x > (EXT_MAX - dg) / 10)
            big = 1;
        else
            x = x * 10 + dg;
    }
    if (!digits)
        return tensor_err(L, NNPERF_E_PARSE, what, name, "external data %s '%s' is not a number", key, val);
    if (big)
        return tensor_err(L, NNPERF_E_INVALID, what, name, "external data %s %s is beyond 2^62", key, val);
    *out = x;
    return NNPERF_OK;
}

/* One external_data entry (StringStringEntryProto): location, offset, length; other keys (checksum) ignored. */
static enum nnperf_status ext_entry(struct ld *L, const struct pb_field *e, struct ir_data *D,
                                    const char *what, const char *name)
{
    const char *why;
    struct pb q = pb_make(e->data, e->len);
    struct pb_field g;
    const char *key = NULL, *val = NULL;
    size_t val_len = 0;
    FOR_FIELDS(q, g, "StringStringEntryProto")
    {
        if (g.wire != PB_LEN) continue;
        if (g.num == 1 && !(key = ox_str(L, &g))) return ox_nomem(L);
        if (g.num == 2) {
            if (!(val = ox_str(L, &g))) return ox_nomem(L);
            val_len = g.len;
        }
    }
    if (!key || !val) return NNPERF_OK;
    if (!strcmp(key, "location")) {
        /* a NUL would cut the path: "w.bin\0../../x" must not open "w.bin" */
        if (memchr(val, 0, val_len))
            return tensor_err(L, NNPERF_E_INVALID, what, name, "external data location has a NUL byte");
        if (!val_len) return tensor_err(L, NNPERF_E_INVALID, what, name, "external data location is empty");
        D->ext_location = val;
    } else if (!strcmp(key, "offset")) {
        return ext_number(L, what, name, key, val, &D->ext_offset);
    } else if (!strcmp(key, "length")) {
        D->ext_has_length = 1;
        return ext_number(L, what, name, key, val, &D->ext_length);
    }
    return NNPERF_OK;
}

/* Counts of what a TensorProto holds besides its data view, for the length check. */
struct tcounts {
    int64_t unpacked; /* unpacked repeated scalars of the typed fields */
    int64_t strings;  /* string_data entries */
    int has_dtype;
    uint64_t dtype; /* data_type as stored */
};

/* Number of stored values of the kept data view (packed typed field), or -1 when malformed. */
static int64_t stored_values(const struct ir_value *v)
{
    if (v->init->enc == DE_FIXED32) return (int64_t)(v->init->data_len / 4);
    if (v->init->enc == DE_FIXED64) return (int64_t)(v->init->data_len / 8);
    return pb_count_varints(v->init->data, v->init->data_len);
}

/* the shape of v in check_data's messages, written only when one is */
#define SHAPE (ox_shape_str(v->rank, v->dims, shape, sizeof shape), shape)
/* The data of a tensor must be what its dims and data_type say: raw_data exactly ceil(numel x bits / 8) bytes,
 * a typed field exactly numel values (two per complex element; one or two 4-bit values per int32_data value),
 * string_data numel strings, external data 'length' (when given) the same bytes. Refusing a mismatch keeps a
 * 16-byte tensor from passing for a terabyte of weights, and a decoder from reading past its data. An external
 * tensor's file is checked where it can be opened (check_external). docs/sources.md [ONNX-PROTO], [ONNX-CHECKER],
 * [ONNX-EXTERNAL]. */
static enum nnperf_status check_data(struct ld *L, const struct ir_value *v, const struct tcounts *tc,
                                     const char *what, const char *name, int64_t *need_out)
{
    enum nnperf_status st = ox_check_size(L, what, name, v->rank, v->dims, v->dtype);
    if (st) return st;
    /* a zero dim makes the tensor empty (the other dims may multiply past int64: ox_check_size lets that pass) */
    int64_t numel = 1;
    for (int i = 0; i < v->rank; i++)
        if (!v->dims[i].val) numel = 0;
    for (int i = 0; i < v->rank && numel; i++) numel *= v->dims[i].val; /* fits: ox_check_size */
    int bits = ir_dtype_bits(v->dtype);
    /* ceil(numel x bits / 8) without overflow (numel x ceil(bits / 8) fits: ox_check_size) */
    int64_t need = numel / 8 * bits + (numel % 8 * bits + 7) / 8;
    *need_out = need;
    const char *dt = ir_dtype_name(v->dtype);
    char shape[200]; /* written by SHAPE when a message needs it */
    if (v->dtype == DT_STRING) {
        if (v->init->enc != DE_NONE && v->init->enc != DE_EXTERNAL)
            return tensor_err(L, NNPERF_E_INVALID, what, name,
                              "a string tensor keeps its data in string_data");
        if (v->init->enc == DE_NONE && tc->strings != numel)
            return tensor_err(L, NNPERF_E_INVALID, what, name, "has %lld strings, its shape %s needs %lld",
                              (long long)tc->strings, SHAPE, (long long)numel);
        return NNPERF_OK;
    }
    switch (v->init->enc) {
    case DE_RAW:
        if ((int64_t)v->init->data_len != need)
            return tensor_err(L, NNPERF_E_INVALID, what, name,
                              "raw_data has %zu bytes, its shape %s of %s needs %lld", v->init->data_len,
                              SHAPE, dt, (long long)need);
        return NNPERF_OK;
    case DE_EXTERNAL:
        if (v->init->ext_has_length && v->init->ext_length != (uint64_t)need)
            return tensor_err(L, NNPERF_E_INVALID, what, name,
                              "external data length %llu does not match its shape %s of %s (%lld bytes)",
                              (unsigned long long)v->init->ext_length, SHAPE, dt, (long long)need);
        return NNPERF_OK;
    case DE_NONE:
        if (numel)
            return tensor_err(L, NNPERF_E_INVALID, what, name, "has no data for its shape %s of %s", SHAPE,
                              dt);
        return NNPERF_OK;
    default: break;
    }
    int64_t have = v->init->enc == DE_REPEATED ? tc->unpacked : stored_values(v);
    if (have < 0) return ox_malformed(L, "TensorProto", "bad packed values", v->init->data);
    int64_t want = numel;
    if (v->dtype == DT_COMPLEX64 || v->dtype == DT_COMPLEX128) want = numel * 2;
    int four_bit =
        bits == 4 && have == (numel + 1) / 2; /* 4-bit types: two values per int32_data value too */
    if (have != want && !four_bit)
        return tensor_err(L, NNPERF_E_INVALID, what, name,
                          "has %lld stored values, its shape %s of %s needs %lld", (long long)have, SHAPE, dt,
                          (long long)want);
    return NNPERF_OK;
}
#undef SHAPE

/* Opens the external data file of v inside the model's folder. The folder and the target are resolved (realpath,
 * which follows every symbolic link), the target must lie inside the folder and be a regular file; it is opened
 * with O_NOFOLLOW and fstat must show the very file that was resolved, so that a link swapped in meanwhile is not
 * followed. Returns 1 with *fd and *size; 0 when the file cannot be reached (missing: weight-stripped models) with
 * *err its errno; -1 with d set when it is refused (outside the folder, not a regular file, swapped). */
static int open_external(const struct ir_model *m, const struct ir_value *v, const char *what,
                         const char *name, int *fd, uint64_t *size, int *err, struct diag *d)
{
    char path[4096];
    char *dir = realpath(m->dir ? m->dir : ".", NULL), *target = NULL;
    int rc = 0;
    if (!dir) {
        *err = errno;
        return 0;
    }
    int w = snprintf(path, sizeof path, "%s/%s", dir, v->init->ext_location);
    if (w < 0 || (size_t)w >= sizeof path) {
        *err = ENAMETOOLONG;
        goto out;
    }
    if (!(target = realpath(path, NULL))) {
        *err = errno;
        goto out;
    }
    size_t dl = strlen(dir);
    if (strcmp(dir, "/") && (strncmp(target, dir, dl) || target[dl] != '/')) {
        diag_set(d, NNPERF_E_INVALID,
                 "%s '%s': external data location '%s' leads outside the model's folder (to %s)", what, name,
                 v->init->ext_location, target);
        rc = -1;
        goto out;
    }
    struct stat want, sb;
    if (stat(target, &want) != 0) {
        *err = errno;
        goto out;
    }
    /* O_NONBLOCK: a FIFO must not hang the load (it is refused below) */
    int f = open(target, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (f < 0) {
        *err = errno;
        if (errno == ELOOP) {
            diag_set(d, NNPERF_E_INVALID,
                     "%s '%s': external data '%s' became a symbolic link while it was opened", what, name,
                     target);
            rc = -1;
        }
        goto out;
    }
    if (fstat(f, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_dev != want.st_dev || sb.st_ino != want.st_ino) {
        close(f);
        diag_set(d, NNPERF_E_INVALID, "%s '%s': external data '%s' is not a regular file", what, name,
                 target);
        rc = -1;
        goto out;
    }
    *fd = f;
    *size = (uint64_t)sb.st_size;
    rc = 1;
out:
    free(target);
    free(dir);
    return rc;
}

/* At load: an external file that exists must be inside the model's folder, a regular file, and hold the tensor's
 * bytes at its offset. A file that cannot be reached is not an error here (weight-stripped models): reading a value
 * from it is (ox_decode_values). The verdict on the last location is kept: tensors usually share one file. */
static enum nnperf_status check_external(struct ld *L, const struct ir_value *v, int64_t need,
                                         const char *what, const char *name)
{
    if (!L->ext_last || strcmp(L->ext_last, v->init->ext_location)) {
        /* an input of the model whether it exists or not: a writer must not create or replace it */
        char *file = ar_printf(L->ar, "%s/%s", L->m->dir ? L->m->dir : ".", v->init->ext_location);
        if (!file || !ox_note_file(L->m, file)) return ox_nomem(L);
        int fd, err;
        int rc = open_external(L->m, v, what, name, &fd, &L->ext_last_size, &err, L->d);
        if (rc < 0) return L->d->status;
        if (rc > 0) close(fd);
        L->ext_last = v->init->ext_location;
        L->ext_last_found = rc > 0;
    }
    if (!L->ext_last_found) return NNPERF_OK;
    uint64_t size = L->ext_last_size;
    if (v->init->ext_offset > size || (uint64_t)need > size - v->init->ext_offset)
        return tensor_err(L, NNPERF_E_INVALID, what, name,
                          "external data offset %llu + %lld bytes is beyond the end of '%s' (%llu bytes)",
                          (unsigned long long)v->init->ext_offset, (long long)need, v->init->ext_location,
                          (unsigned long long)size);
    return NNPERF_OK;
}

static int propagated(int dt);

/* A model loaded from a file keeps none of the file's bytes once loaded (the file may be rewritten or shrink under
 * it: a mapping would then read other bytes, or fault with SIGBUS): the data of a tensor whose values may be
 * propagated (at most NNPERF_MAX_CONST_ELEMS elements, ox_decode_values) is copied into the model's arena, that of
 * a larger one is dropped, as nothing reads it. */
static enum nnperf_status own_data(struct ld *L, const struct ir_value *v, struct ir_data *D)
{
    int64_t numel;
    int keep = propagated(v->dtype) && ir_numel(v, &numel) && numel <= NNPERF_MAX_CONST_ELEMS;
    const uint8_t **views[2] = {&D->data, &D->tensor_pb};
    size_t lens[2] = {D->data_len, D->tensor_pb_len};
    for (int i = 0; i < 2; i++) {
        if (!*views[i]) continue;
        uint8_t *c = keep ? ar_alloc(L->ar, lens[i] ? lens[i] : 1) : NULL;
        if (keep && !c) return ox_nomem(L);
        if (c) memcpy(c, *views[i], lens[i]);
        *views[i] = c;
    }
    return NNPERF_OK;
}

enum nnperf_status ox_parse_tensor_proto(struct ld *L, const uint8_t *p, size_t n, struct ir_value *v,
                                         const char **name_out, const char *what, const char *label)
{
    const char *why;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    int ndims = 0;
    int has_data = 0, external = 0, repeated = 0;
    struct tcounts tc = {0, 0, 0, 0};
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
    const char *nm = label ? label : tname;
    if (ndims > NNPERF_MAX_RANK)
        return tensor_err(L, NNPERF_E_LIMIT, what, nm, "has more than %d dims", NNPERF_MAX_RANK);
    v->type_kind = TK_TENSOR;
    v->rank = ndims;
    v->dims = ar_calloc(L->ar, (size_t)(ndims ? ndims : 1), sizeof(struct ir_dim));
    if (!v->dims) return ox_nomem(L);
    v->declared = 1;
    struct ir_data *D = ar_alloc(L->ar, sizeof *D);
    if (!D) return ox_nomem(L);
    v->init = D;
    r = pb_make(p, n);
    int di = 0;
    FOR_FIELDS(r, f, "TensorProto")
    {
        switch (f.num) {
        case TP_DIMS:
            if (f.wire == PB_VARINT) {
                if ((int64_t)f.u < 0)
                    return tensor_err(L, NNPERF_E_INVALID, what, nm, "has a negative dim (%lld)",
                                      (long long)(int64_t)f.u);
                v->dims[di++] = ir_dim_known((int64_t)f.u);
            } else if (f.wire == PB_LEN) {
                struct pb q = pb_make(f.data, f.len);
                uint64_t x;
                int rc;
                while ((rc = pb_varint(&q, &x)) == 1) {
                    if ((int64_t)x < 0)
                        return tensor_err(L, NNPERF_E_INVALID, what, nm, "has a negative dim (%lld)",
                                          (long long)(int64_t)x);
                    v->dims[di++] = ir_dim_known((int64_t)x);
                }
                if (rc < 0) return ox_malformed(L, "TensorProto", "bad packed dims", f.data);
            }
            break;
        case TP_DTYPE:
            if (f.wire == PB_VARINT) {
                tc.has_dtype = 1;
                tc.dtype = f.u;
                v->dtype = f.u < DT_COUNT ? (int)f.u : DT_UNDEFINED;
            }
            break;
        case TP_NAME:
            if (f.wire == PB_LEN && name_out) *name_out = tname;
            break;
        case TP_RAW:
            if (f.wire == PB_LEN) {
                D->enc = DE_RAW;
                D->data = f.data;
                D->data_len = f.len;
                has_data = 1;
            }
            break;
        case TP_FLOAT:
        case TP_INT32:
        case TP_INT64:
        case TP_DOUBLE:
        case TP_UINT64:
            if (f.wire == PB_LEN) {
                if (has_data && D->data_len && f.len) break; /* keep the first non-empty field */
                D->enc = (f.num == TP_FLOAT) ? DE_FIXED32 : (f.num == TP_DOUBLE) ? DE_FIXED64 : DE_VARINT;
                D->data = f.data;
                D->data_len = f.len;
                has_data = 1;
            } else {
                repeated = 1; /* unpacked repeated scalars */
                tc.unpacked++;
            }
            break;
        case TP_STRING:
            has_data = 1;
            tc.strings++;
            break;
        case TP_LOCATION:
            if (f.wire == PB_VARINT && f.u == 1) external = 1;
            break;
        case TP_EXTERNAL:
            if (f.wire == PB_LEN) {
                enum nnperf_status st = ext_entry(L, &f, D, what, nm);
                if (st) return st;
            }
            break;
        default: break;
        }
    }
    /* data_type: one of ONNX's (TensorProto.DataType; UNDEFINED is not allowed for a tensor) */
    if (!tc.has_dtype || tc.dtype == DT_UNDEFINED || tc.dtype >= DT_COUNT) {
        if (!tc.has_dtype || tc.dtype == DT_UNDEFINED)
            return tensor_err(L, NNPERF_E_INVALID, what, nm, "has no data_type");
        return tensor_err(L, NNPERF_E_INVALID, what, nm,
                          "data_type %llu is not one this nnperf knows (1 to %d)",
                          (unsigned long long)tc.dtype, DT_COUNT - 1);
    }
    if (external) {
        if (!D->ext_location)
            return tensor_err(L, NNPERF_E_PARSE, what, nm, "external data has no 'location'");
        D->enc = DE_EXTERNAL;
        const char *loc = D->ext_location;
        /* refuse paths that escape the model's directory: absolute, or with a ".." component (symbolic links are
         * resolved where the file is opened: open_external) */
        int escapes = loc[0] == '/' || loc[0] == '\\' || (loc[0] && loc[1] == ':');
        for (const char *s = loc; *s && !escapes; s++)
            if (s[0] == '.' && s[1] == '.' && (s == loc || s[-1] == '/' || s[-1] == '\\') &&
                (s[2] == 0 || s[2] == '/' || s[2] == '\\'))
                escapes = 1;
        if (escapes)
            return tensor_err(L, NNPERF_E_INVALID, what, nm,
                              "external data location '%s' escapes the model's directory", loc);
    } else if (repeated && !has_data) {
        D->enc = DE_REPEATED;
        D->tensor_pb = p;
        D->tensor_pb_len = n;
    }
    int64_t need;
    enum nnperf_status st = check_data(L, v, &tc, what, nm, &need);
    if (st) return st;
    if (external) return check_external(L, v, need, what, nm);
    return L->m->from_file ? own_data(L, v, D) : NNPERF_OK;
}

enum nnperf_status ox_parse_tensor(struct ir_model *m, const uint8_t *buf, size_t len, struct ir_value *v,
                                   struct diag *d)
{
    struct ld L0 = {.m = m, .ar = &m->ar, .d = d};
    const char *name = NULL;
    enum nnperf_status st = ox_parse_tensor_proto(&L0, buf, len, v, &name, "tensor", NULL);
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
static enum nnperf_status decode_typed(const struct ir_value *v, const uint8_t *p, size_t n, int enc,
                                       int64_t numel, int64_t *ibuf, double *fbuf, struct diag *d)
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

/* Reads the numel elements of v into ibuf (integers) or fbuf (floating point); ext holds external data. */
static enum nnperf_status decode_elems(const struct ir_model *m, const struct ir_value *v, int64_t numel,
                                       int64_t *ibuf, double *fbuf, uint8_t *ext, struct diag *d)
{
    int bits = ir_dtype_bits(v->dtype);
    size_t need = (size_t)((numel * bits + 7) / 8);
    const uint8_t *p = v->init->data;
    size_t n = v->init->data_len;
    int enc = v->init->enc;
    if (enc == DE_EXTERNAL) {
        int fd, err;
        uint64_t size;
        int rc = open_external(m, v, "tensor", v->name, &fd, &size, &err, d);
        if (rc < 0) return d->status;
        if (rc == 0)
            return diag_set(d, NNPERF_E_IO, "tensor '%s': cannot open external data '%s/%s': %s", v->name,
                            m->dir ? m->dir : ".", v->init->ext_location, strerror(err));
        ssize_t got = -1;
        if (v->init->ext_offset <= size && need <= size - v->init->ext_offset)
            got = pread(fd, ext, need, (off_t)v->init->ext_offset);
        close(fd);
        if (got < 0 || (size_t)got != need)
            return diag_set(d, NNPERF_E_IO,
                            "tensor '%s': external data '%s' is shorter than offset %llu + %zu bytes",
                            v->name, v->init->ext_location, (unsigned long long)v->init->ext_offset, need);
        p = ext;
        n = need;
        enc = DE_RAW;
    }
    if (enc == DE_REPEATED) {
        /* unpacked repeated typed field: gather the varints/fixed values of the data field in order */
        struct pb r = pb_make(v->init->tensor_pb, v->init->tensor_pb_len);
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
    return NNPERF_OK;
}

enum nnperf_status ox_decode_values(const struct ir_model *m, struct arena *ar, struct ir_value *v,
                                    struct diag *d)
{
    int64_t numel;
    if (v->iv || v->fv || ir_value_enc(v) == DE_NONE || !propagated(v->dtype)) return NNPERF_OK;
    if (!ir_numel(v, &numel) || numel > NNPERF_MAX_CONST_ELEMS) return NNPERF_OK;
    size_t cnt = (size_t)(numel ? numel : 1);
    /* most are a few elements (the Constants of a shape computation): those are decoded on the stack */
    enum { SMALL = 16 };
    int64_t ibuf_s[SMALL] = {0};
    double fbuf_s[SMALL] = {0};
    uint8_t ext_s[SMALL * 8];
    int small = cnt <= SMALL;
    int64_t *ibuf = small ? ibuf_s : calloc(cnt, sizeof *ibuf);
    double *fbuf = small ? fbuf_s : calloc(cnt, sizeof *fbuf);
    uint8_t *ext = small ? ext_s : malloc(cnt * 8);
    enum nnperf_status st = ibuf && fbuf && ext ? decode_elems(m, v, numel, ibuf, fbuf, ext, d)
                                                : diag_set(d, NNPERF_E_NOMEM, "out of memory");
    if (!st && ir_dtype_is_int(v->dtype)) {
        struct ir_ival *iv = ar_calloc(ar, cnt, sizeof *iv);
        if (iv) {
            for (int64_t k = 0; k < numel; k++) iv[k] = ir_ival_known(ibuf[k]);
            v->iv = iv;
        } else {
            st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
        }
    } else if (!st) {
        double *fv = ar_calloc(ar, cnt, sizeof *fv);
        if (fv) {
            memcpy(fv, fbuf, (size_t)numel * sizeof *fv);
            v->fv = fv;
        } else {
            st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
        }
    }
    if (!st) v->nv = (int)numel; /* at most NNPERF_MAX_CONST_ELEMS (above) */
    if (!small) free(ibuf), free(fbuf), free(ext);
    return st;
}
