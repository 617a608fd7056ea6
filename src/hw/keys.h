/* keys.h - the platform key table: one row per YAML key of a platform description (name, type, unit, physical range,
 * where the value lives in struct hw_desc, default, one line of documentation). The YAML reader (yaml.c), the
 * defaults, the validation and the writer (hw.c), `--set KEY=VALUE` (nnperf_platform_set) and the key table of
 * docs/platform-format.md (tools/dev/platform_keys.c) all walk this one table: adding a key is one row in keys.c
 * plus its field in struct hw_desc (docs/design.md, "Adding a platform key").
 *
 * Paths are dotted ("memory.sram_bytes"). A row's parent is the row whose path is its path up to the last dot: a
 * SECTION row is a YAML mapping of further keys. A LIST row is a YAML list; its elements are described by the rows
 * whose paths continue "path[]": "path[].key" rows make each element a mapping (alignment rules), a single "path[]"
 * row makes it a value (a fusion pattern is a list of operator names). Offsets of "path[]..." rows are inside the
 * element struct. A row with a map (HW_MAP_DTYPE, HW_MAP_CLASS) is a YAML mapping from dtype or operator class name
 * to a value, stored as an array indexed by dtype or class; it may also have explicit child rows
 * ("compute.efficiency.default"). */
#ifndef NNPERF_HW_KEYS_H
#define NNPERF_HW_KEYS_H

#include "hw.h"

enum hw_ktype {
    HW_T_SECTION, /* a mapping of further keys */
    HW_T_NUM,     /* double, with a unit and a range */
    HW_T_INT,     /* int */
    HW_T_I64,     /* int64_t */
    HW_T_BOOL,    /* int 0 or 1 */
    HW_T_TEXT,    /* char[size], one line or a few of free text */
    HW_T_NAME,    /* char[size], an identifier: no spaces, no control characters */
    HW_T_DTYPE,   /* int, a dtype (enum hw_dtype) by name */
    HW_T_OPS,     /* a list of operator names: char[max][HW_MAX_NAME] at off, its length (int) at count_off */
    HW_T_CLASSES, /* a list of operator class names: unsigned bit mask (1u << class) */
    HW_T_KEYS,    /* a list of key paths of this table: char[max][HW_MAX_KEY] at off, length at count_off */
    HW_T_LIST,    /* a list of elements of 'size' bytes at off, their number (int) at count_off */
    HW_T_BASE,    /* a platform this one starts from (preset name or file): read by the loader, not stored */
    HW_T_FORMAT   /* the format version: read and checked by the loader, not stored */
};

enum hw_kmap { HW_MAP_NONE, HW_MAP_DTYPE, HW_MAP_CLASS };

enum hw_unit {
    HW_U_NONE,     /* a plain number (SI multipliers k, M, G ... allowed) */
    HW_U_FRACTION, /* a plain number, no suffix */
    HW_U_OPS_S,    /* ops/s (one multiply-accumulate = 2 ops) */
    HW_U_BYTES,
    HW_U_BYTES_S,
    HW_U_SECONDS,
    HW_U_HZ,
    HW_U_WATTS,
    HW_U_JOULES,
    HW_U_COUNT,
    HW_U_ANY = HW_U_COUNT /* hw_parse_value: any unit's suffix (hw_parse_number) */
};

#define HW_F_REQUIRED 1u  /* must be given when its section is present (a file or its base gives it) */
#define HW_F_ZERO_OFF 2u  /* 0 is allowed and means "none" / "not a limit"; other values lie in [min, max] */
#define HW_F_PRESENCE 4u  /* a section whose presence is an int at off (fallback) */
#define HW_F_UNIQUE   8u  /* list entries may not repeat */
#define HW_F_UNSET    16u /* map entries not given hold 'def', outside the range: "use the default" */
#define HW_F_OWN      32u /* a required key every file gives itself, also one on a base (name) */
/* what a key says about a platform file on a base (src/hw/yaml.c, drop_base_band): it only names or describes the
 * platform (IDENTITY: the prediction does not read it), or it is the band of its test rows (BAND: validation,
 * LLM_BAND: llm_validation); any other key changes what the base predicts */
#define HW_F_IDENTITY 64u
#define HW_F_BAND     128u
#define HW_F_LLM_BAND 256u

struct hw_key {
    const char *path;
    enum hw_ktype type;
    enum hw_kmap map;
    enum hw_unit unit;
    double min, max; /* numbers: the physical range; lists: the number of entries */
    unsigned flags;
    size_t off;       /* in struct hw_desc, or in the element struct for "list[]..." rows */
    size_t size;      /* strings: capacity with the NUL; LIST: element size */
    size_t count_off; /* OPS, KEYS, LIST: the int holding the number of entries (same base as off) */
    double def;       /* default of numbers, booleans, dtypes; map entries not given hold it */
    const char *doc;  /* one line for docs/platform-format.md */
    /* LIST rows: a rule across one element's fields; returns NULL when the element is fine, else why not */
    const char *(*check)(const void *elem);
};

#define HW_KEY_CAP 184 /* rows the table may hold (the reader keeps a line per row) */

extern const struct hw_key hw_keys[];
extern const int hw_n_keys;

/* The row with exactly this path ("memory.ddr_bandwidth", "compute.alignment[].c"); NULL when none. */
const struct hw_key *hw_key_find(const char *path);
/* A settable key path: a row that is not a list element nor the format/base/assumptions bookkeeping, or a map row
 * followed by one of its keys ("compute.peak_ops.int8"). Returns the row, *entry = the map index or -1; NULL when the
 * path is not such a key. */
const struct hw_key *hw_key_resolve(const char *path, int *entry);
/* The n-th key of a map row (dtype or class names); NULL past the end. */
const char *hw_key_map_name(const struct hw_key *k, int n);
int hw_key_map_size(const struct hw_key *k);
/* The parent row's path length (0 at the top level), and the last segment of the path. */
size_t hw_key_parent_len(const struct hw_key *k);
const char *hw_key_leaf(const struct hw_key *k);
/* The parent row (NULL at the top level); whether every section above k is present in hw (an absent fallback: its
 * keys are neither checked nor written). */
const struct hw_key *hw_key_parent(const struct hw_key *k);
int hw_key_live(const struct hw_desc *hw, const struct hw_key *k);
/* Unit names for messages and docs: "bytes/s"; what a value of that unit is: "a bandwidth in bytes/s". */
const char *hw_unit_name(enum hw_unit u);
const char *hw_unit_what(enum hw_unit u);

/* Parses a number with an optional suffix that must fit unit u: SI/IEC multipliers (k M G T P, Ki Mi Gi Ti Pi)
 * alone or followed by the unit's symbol (B, B/s, ops/s, OPS, FLOPS, Hz, W), or small multipliers (m u n p) before
 * s, W or J, optionally after one space ("19.2 GB/s"). Returns 1 with *out in SI units. Returns 0 when malformed,
 * with *other = the unit whose suffix it carries when that is another unit's ("25.6ms" on a bandwidth: seconds),
 * else HW_U_COUNT. u = HW_U_ANY accepts every unit's suffixes (hw_parse_number). */
int hw_parse_value(const char *s, enum hw_unit u, double *out, enum hw_unit *other);

/* Checks one number of row k against its range: NULL when fine, else the reason ("must be between 1e6 and 1e17
 * bytes/s"), written into buf. */
const char *hw_key_check_num(const struct hw_key *k, double v, char *buf, size_t cap);
/* Checks one entry of an OPS or KEYS list (a known operator, a known key): NULL when fine, else why not. */
const char *hw_key_check_item(const struct hw_key *k, const char *item, char *buf, size_t cap);
/* Checks the value row k holds in base (struct hw_desc, or a list element for "list[]..." rows): NULL when fine,
 * else why not (in buf), with *bad = the map or list entry at fault (-1: the value as a whole). Elements of LIST rows
 * are checked by the caller (their own rows and the row's check). */
const char *hw_key_check(const struct hw_key *k, const void *base, int *bad, char *buf, size_t cap);
/* Whether row k is inside a list element ("compute.alignment[].c"). */
int hw_key_is_element(const struct hw_key *k);
/* Whether the value of a required row is missing (a zero number, an empty string or class set). */
int hw_key_empty(const struct hw_key *k, const void *base);
/* The rules across keys (a positive peak, a default dtype with a peak): NULL when they hold, else why not, with
 * *key = the key to blame. */
const char *hw_check_rules(const struct hw_desc *hw, const char **key, char *buf, size_t cap);
/* Appends the value of a settable key path (hw_key_resolve) as YAML text: a scalar, a list, a map's flow mapping or
 * one map entry. NNPERF_E_USAGE for an unknown path or a section. */
enum nnperf_status hw_key_get(const struct hw_desc *hw, const char *path, struct strbuf *sb);
/* v in the shortest form that reads back exactly ("1.28e14", "5e-5", "0.7"). */
void hw_fmt_num(double v, char *b, size_t cap);

#endif
