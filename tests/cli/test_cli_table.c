/* test_cli_table.c - the CLI's command and option tables check themselves (every row well formed, no option name
 * taken twice by one command, --format rows and command formats agree), and the table-driven parser does what the
 * table says: `--opt value` and `--opt=value`, aliases, `--`, comma lists and repeated options bounded together
 * (the 256 + 2 --batch values that once wrote past a stack array), ranges, choices, "did you mean", flags. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tinytest.h"

static void check_tables(void)
{
    for (int i = 0; i < CMD_COUNT; i++) {
        const struct cli_cmd *c = &cli_cmds[i];
        CHECK(c->name && c->summary && c->synopsis && c->description);
        char want[64];
        snprintf(want, sizeof want, "nnperf %s", c->name);
        CHECK(!strncmp(c->synopsis, want, strlen(want)));
        CHECK(c->min_operands >= 0 && c->min_operands <= c->max_operands && c->max_operands <= CLI_MAX_LIST);
        CHECK(c->max_operands == 0 || c->operand_name != NULL);
        CHECK_EQ_U(cli_cmd_find(c->name), (unsigned)i);
        /* a command has --format exactly when it has formats */
        CHECK(!!c->formats == !!(cli_options[OPT_FORMAT].cmds & (1u << i)));
    }
    for (int i = 0; i < OPT_COUNT; i++) {
        const struct cli_option *o = &cli_options[i];
        CHECK(o->name && !strncmp(o->name, "--", 2) && strlen(o->name) > 3);
        CHECK(!o->alias || (o->alias[0] == '-' && o->alias[1] && o->alias[1] != '-' && !o->alias[2]));
        CHECK((o->type == CLI_T_FLAG) == (o->metavar == NULL));
        CHECK(o->cmds != 0 && (o->lists & ~o->cmds) == 0);
        CHECK(o->help && o->help[0] && o->help[strlen(o->help) - 1] != '.');
        CHECK(o->group < CLI_G_COUNT);
        if (o->type == CLI_T_INT || o->type == CLI_T_NUM) CHECK(o->min < o->max);
        if (o->type == CLI_T_CHOICE && o->choices) {
            /* every choice is named in the help line */
            for (const char *c = o->choices; *c;) {
                size_t l = strcspn(c, ",");
                char w[64];
                snprintf(w, sizeof w, "%.*s", (int)l, c);
                if (!strstr(o->help, w)) fprintf(stderr, "%s: choice '%s' not in its help\n", o->name, w);
                CHECK(strstr(o->help, w) != NULL);
                c += l + (c[l] == ',');
            }
        }
        /* no name or alias accepted twice by one command */
        for (int k = 0; k < i; k++) {
            const struct cli_option *p = &cli_options[k];
            int same = !strcmp(o->name, p->name) || (o->alias && p->alias && !strcmp(o->alias, p->alias)) ||
                       (o->alias && !strcmp(o->alias, p->name)) || (p->alias && !strcmp(p->alias, o->name));
            if (same && (o->cmds & p->cmds)) fprintf(stderr, "%s: taken twice by one command\n", o->name);
            CHECK(!(same && (o->cmds & p->cmds)));
        }
    }
}

/* The CLI's choices are the library's name tables (nnperf_*_name): --memory-model lists the memory models after
 * "default" in their order (cli_args.c maps choice i to model i + 1), --target the MCU targets, and every format a
 * command offers is a library format, but map's yaml (nnperf_mcu_plan_render's own). */
static void check_choices(enum cli_opt_id id, int (*count)(void), const char *(*name)(int), int first)
{
    char want[256] = "";
    size_t k = 0;
    for (int i = first; i < count() && k < sizeof want; i++)
        k += (size_t)snprintf(want + k, sizeof want - k, "%s%s", i > first ? "," : "", name(i));
    if (strcmp(cli_options[id].choices, want))
        fprintf(stderr, "%s: choices '%s', the library's '%s'\n", cli_options[id].name,
                cli_options[id].choices, want);
    CHECK(!strcmp(cli_options[id].choices, want));
}

static void check_names(void)
{
    check_choices(OPT_MEMORY_MODEL, nnperf_memory_model_count, nnperf_memory_model_name, 1);
    CHECK(!strcmp(nnperf_memory_model_name(NNPERF_MEMORY_DEFAULT), "default"));
    check_choices(OPT_TARGET, nnperf_mcu_target_count, nnperf_mcu_target_name, 0);
    for (int i = 0; i < CMD_COUNT; i++)
        for (const char *f = cli_cmds[i].formats; f && *f;) {
            size_t l = strcspn(f, ",");
            int known = i == CMD_MAP && l == 4 && !strncmp(f, "yaml", 4);
            for (int j = 0; j < nnperf_format_count(); j++)
                known |= strlen(nnperf_format_name(j)) == l && !strncmp(f, nnperf_format_name(j), l);
            if (!known)
                fprintf(stderr, "%s: format '%.*s' is no library format\n", cli_cmds[i].name, (int)l, f);
            CHECK(known);
            f += l + (f[l] == ',');
        }
    CHECK(nnperf_format_name(NNPERF_FORMAT_TRACE) &&
          !strcmp(nnperf_format_name(NNPERF_FORMAT_TRACE), "trace"));
    CHECK(nnperf_format_name(nnperf_format_count()) == NULL && nnperf_memory_model_name(-1) == NULL);
}

/* the words of the last command line parsed: operands point into them until the next parse */
static char *words;

/* parses a space-separated command line for cmd; returns the status, message in err */
static int parse(enum cli_cmd_id cmd, const char *line, struct cli_args *a, char *err, size_t n)
{
    free(words);
    words = strdup(line);
    char *argv[600];
    int argc = 0;
    for (char *t = strtok(words, " "); t && argc < 600; t = strtok(NULL, " ")) argv[argc++] = t;
    return cli_parse(cmd, argc, argv, a, err, n);
}

static void check_parser(void)
{
    struct cli_args a;
    char err[1024];

    CHECK_EQ_U(parse(CMD_ANALYZE, "m.onnx --hw horizon-j5 --batch=4 -o out.json --format=json -q", &a, err,
                     sizeof err),
               0);
    CHECK_STR(cli_str(&a, OPT_HW), "horizon-j5");
    CHECK_EQ_U(a.v[OPT_BATCH].i[0], 4);
    CHECK_STR(cli_str(&a, OPT_OUTPUT), "out.json");
    CHECK_STR(cli_str(&a, OPT_FORMAT), "json");
    CHECK(cli_flag(&a, OPT_QUIET));
    CHECK_EQ_U(a.n_operands, 1);
    CHECK_STR(a.operands[0], "m.onnx");
    cli_args_free(&a);

    /* lists: commas and repetition count together */
    CHECK_EQ_U(parse(CMD_SWEEP, "m.onnx --hw a,b --hw=c --batch 1,2 --batch 8 --dtype int8,fp16", &a, err,
                     sizeof err),
               0);
    CHECK_EQ_U(a.v[OPT_HW].n, 3);
    CHECK_STR(a.v[OPT_HW].s[2], "c");
    CHECK_EQ_U(a.v[OPT_BATCH].n, 3);
    CHECK_EQ_U(a.v[OPT_BATCH].i[2], 8);
    CHECK_EQ_U(a.v[OPT_DTYPE].n, 2);
    cli_args_free(&a);

    /* the crash: 256 values then two more, in one bound; no write past it */
    char line[2048] = "m.onnx --batch ";
    for (int i = 0; i < 256; i++) strcat(line, i ? ",1" : "1");
    strcat(line, " --batch 1000000,7");
    CHECK_EQ_U(parse(CMD_SWEEP, line, &a, err, sizeof err), 2);
    CHECK_STR(err, "sweep: too many values for --batch (at most 256)");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, line, &a, err, sizeof err), 2);
    CHECK_STR(err, "analyze: --batch takes one value (sweep takes a list)");
    cli_args_free(&a);

    /* ranges, choices, flags, values */
    CHECK_EQ_U(parse(CMD_ANALYZE, "m.onnx --hw x --batch 0", &a, err, sizeof err), 2);
    CHECK_STR(err, "analyze: --batch '0': expected a whole number from 1 to 1000000");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, "m.onnx --hw x --interval 0", &a, err, sizeof err), 2);
    CHECK_STR(err, "analyze: --interval '0': expected a number greater than 0 and at most 1e+06");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, "m.onnx --hw x --interval nan", &a, err, sizeof err), 2);
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, "m.onnx --format jsno", &a, err, sizeof err), 2);
    CHECK_STR(err, "analyze: unknown format 'jsno' (table, json, csv, html or trace; did you mean 'json'?)");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_OPS, "--format json", &a, err, sizeof err), 2);
    CHECK_STR(err, "ops: unknown format 'json' (table or csv)");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, "m.onnx --fromat json", &a, err, sizeof err), 2);
    CHECK_STR(err, "analyze: unknown option '--fromat' (did you mean '--format'?)");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, "m.onnx --zzzzzzzz", &a, err, sizeof err), 2);
    CHECK_STR(err, "analyze: unknown option '--zzzzzzzz' (see 'nnperf help analyze')");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_SWEEP, "m.onnx --plot roofline", &a, err, sizeof err), 2);
    CHECK_STR(err, "sweep: option '--plot' does not apply to sweep (it is an option of analyze)");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, "m.onnx --strict=yes", &a, err, sizeof err), 2);
    CHECK_STR(err, "analyze: option '--strict' takes no value");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, "m.onnx --hw", &a, err, sizeof err), 2);
    CHECK_STR(err, "analyze: option '--hw' needs a value (NAME|FILE)");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, "m.onnx --hw --format json", &a, err, sizeof err), 2);
    CHECK_STR(err, "analyze: option '--hw' needs a value (NAME|FILE)");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_COMPARE, "a.onnx --hw x,,y", &a, err, sizeof err), 2);
    CHECK_STR(err, "compare: --hw 'x,,y': an empty value");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, "m.onnx --format json --format csv", &a, err, sizeof err), 2);
    CHECK_STR(err, "analyze: --format takes one value");
    cli_args_free(&a);

    /* operands */
    CHECK_EQ_U(parse(CMD_ANALYZE, "a.onnx b.onnx", &a, err, sizeof err), 2);
    CHECK_STR(err, "analyze: more than one model given ('a.onnx' and 'b.onnx')");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, "--format json", &a, err, sizeof err), 2);
    CHECK_STR(err, "analyze: no model given (see 'nnperf help analyze')");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_OPS, "extra", &a, err, sizeof err), 2);
    CHECK_STR(err, "ops: unexpected argument 'extra' (see 'nnperf help ops')");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, "--format json -- -m.onnx", &a, err, sizeof err), 0);
    CHECK_STR(a.operands[0], "-m.onnx");
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ANALYZE, "--fromat x --help", &a, err, sizeof err), 0);
    CHECK(a.help);
    cli_args_free(&a);
    CHECK_EQ_U(parse(CMD_ADVISE, "--explain align-channels", &a, err, sizeof err), 0);
    CHECK(cli_flag(&a, OPT_EXPLAIN));
    CHECK_STR(a.operands[0], "align-channels");
    cli_args_free(&a);
    /* --batch means sequences in llm (its own row), frames elsewhere */
    CHECK_EQ_U(parse(CMD_LLM, "m.onnx --batch 1,2,4", &a, err, sizeof err), 0);
    CHECK_EQ_U(a.v[OPT_LLM_BATCH].n, 3);
    CHECK_EQ_U(a.v[OPT_BATCH].n, 0);
    cli_args_free(&a);

    /* did you mean */
    const char *cmds[] = {"analyze", "compare", "sweep"};
    CHECK_STR(cli_suggest("analyse", cmds, 3), "analyze");
    CHECK_STR(cli_suggest("sweeep", cmds, 3), "sweep");
    CHECK(cli_suggest("xyz", cmds, 3) == NULL);
    const char *presets[] = {"horizon-j5", "rdk-s100", "zcu102-dpu"};
    CHECK_STR(cli_suggest("hoizon-j5", presets, 3), "horizon-j5");
}

int main(void)
{
    check_tables();
    check_names();
    check_parser();
    free(words);
    return tt_done();
}
