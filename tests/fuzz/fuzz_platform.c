/* fuzz_platform.c - libFuzzer harness for the platform YAML reader (src/hw/yaml.c, the key table src/hw/keys.c).
 * The input is a platform file; bases may name presets only (no file is read). A description that loads must hold
 * the promises of docs/platform-format.md, else the harness aborts (a finding):
 *   - it validates (hw_validate), and written back (hw_write_yaml) it loads again to the same bytes of struct
 *     hw_desc, and that writes the same text (the round trip);
 *   - every settable key read with hw_key_get and set again with hw_set (--set) succeeds and changes nothing.
 * Seeds: the presets and tests/bad-inputs/platforms (fuzz_platform.seeds); dictionary: fuzz_platform.dict, generated
 * from the key table by tools/dev/gen_platform_doc.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hw/keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* every key that hw_key_get can show and hw_set can take back, at its own value */
static void set_each_key(const struct hw_desc *hw, struct hw_desc *tmp)
{
    for (int i = 0; i < hw_n_keys; i++) {
        const struct hw_key *k = &hw_keys[i];
        struct diag d = {NNPERF_OK, {0}};
        int n = 1;
        if (!hw_key_resolve(k->path, NULL) || k->type == HW_T_SECTION || !hw_key_live(hw, k)) continue;
        if (k->type == HW_T_OPS || k->type == HW_T_LIST)
            memcpy(&n, (const char *)hw + k->count_off, sizeof n);
        if (!n) continue; /* an empty list is written as no key: "[]" is refused */
        if (k->type == HW_T_CLASSES && hw_key_empty(k, hw)) continue; /* an empty class set, the same */
        struct strbuf sb;
        sb_init(&sb, 1u << 20);
        if (hw_key_get(hw, k->path, &sb) != NNPERF_OK || sb.overflow || !sb.p) abort();
        *tmp = *hw;
        tmp->n_assume = 0; /* hw_set drops the key's assumption mark; compare without the list */
        memset(tmp->assume, 0, sizeof tmp->assume);
        struct hw_desc want = *tmp;
        if (hw_set(tmp, k->path, sb.p, &d) != NNPERF_OK || memcmp(tmp, &want, sizeof want)) abort();
        sb_free(&sb);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct hw_desc *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (!a || !b) abort();
    struct diag d = {NNPERF_OK, {0}};
    if (hw_load_text((const char *)data, size, "fuzz.yaml", NULL, HW_LOAD_NO_FILES, a, &d) == NNPERF_OK) {
        if (hw_validate(a, "fuzz.yaml", &d) != NNPERF_OK) abort();
        struct strbuf s1, s2;
        sb_init(&s1, 1u << 20);
        sb_init(&s2, 1u << 20);
        hw_write_yaml(a, &s1);
        if (s1.overflow || !s1.p || hw_load_yaml(s1.p, s1.len, "written.yaml", b, &d) != NNPERF_OK) abort();
        if (memcmp(a, b, sizeof *a)) abort();
        hw_write_yaml(b, &s2);
        if (s2.overflow || !s2.p || strcmp(s1.p, s2.p)) abort();
        sb_free(&s1);
        sb_free(&s2);
        set_each_key(a, b);
    } else if (!d.status || !d.msg[0]) {
        abort(); /* an error always says why */
    }
    free(a);
    free(b);
    return 0;
}
