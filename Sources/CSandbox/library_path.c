// Where a symbol of the running process comes from (dladdr), for the host to find the Swift
// runtime it runs on.
#include "CSandbox.h"

#include <dlfcn.h>
#include <string.h>

int sg_library_of_symbol(const char *symbol, char *path, unsigned long size) {
    void *address = dlsym(RTLD_DEFAULT, symbol);
    Dl_info info;
    if (address == NULL || dladdr(address, &info) == 0 || info.dli_fname == NULL) return -1;
    if (strlen(info.dli_fname) + 1 > size) return -1;
    strcpy(path, info.dli_fname);
    return 0;
}
