/* cli_table.c - the command table (rows in commands.def) and the option table (rows in options.def): what the parser, the help, the man
 * page and the completion read. No code here. */
#include <string.h>

#include "cli.h"

const struct cli_option cli_options[OPT_COUNT] = {
#define OPT(id, ...) [OPT_##id] = __VA_ARGS__,
#include "options.def"
#undef OPT
};

const char *const cli_group_titles[CLI_G_COUNT] = {
    [CLI_G_OPTIONS] = "options", [CLI_G_SHAPES] = "shapes",   [CLI_G_PREDICT] = "platform and prediction",
    [CLI_G_OUTPUT] = "output",   [CLI_G_GENERAL] = "general",
};

const struct cli_cmd cli_cmds[CMD_COUNT] = {
#define CMD(id, fn, ...) [CMD_##id] = __VA_ARGS__,
#include "commands.def"
#undef CMD
};

int cli_cmd_find(const char *name)
{
    for (int i = 0; i < CMD_COUNT; i++)
        if (!strcmp(cli_cmds[i].name, name)) return i;
    return -1;
}
