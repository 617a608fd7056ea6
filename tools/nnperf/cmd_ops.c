/* cmd_ops.c - `nnperf ops`: the operator registry as a table or CSV. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_ops(const struct cli_args *a)
{
    const char *f = cli_str(a, OPT_FORMAT);
    int csv = f && !strcmp(f, "csv");
    if (csv)
        printf("domain,name,since,until,class\n");
    else
        printf("%-26s %-34s %-8s %s\n", "domain", "operator", "opsets", "class");
    for (int i = 0; i < nnperf_op_count(); i++) {
        const char *dom, *name, *klass;
        int since, until;
        nnperf_op_info(i, &dom, &name, &since, &until, &klass);
        char range[32];
        if (until)
            snprintf(range, sizeof range, "%d-%d", since, until);
        else
            snprintf(range, sizeof range, "%d+", since);
        if (csv)
            printf("%s,%s,%d,%d,%s\n", dom, name, since, until, klass);
        else
            printf("%-26s %-34s %-8s %s\n", dom, name, range, klass);
    }
    if (!csv) printf("\n%d operators\n", nnperf_op_count());
    return cli_finish_stdout();
}
