// The module is its header (CSQLite.h); a C target needs one source file.
#include "CSQLite.h"
