#ifndef SANDGLASS_CSQLITE_H
#define SANDGLASS_CSQLITE_H

// The system's SQLite (libsqlite3-dev), for the host's journal.
#include <sqlite3.h>

/// SQLITE_TRANSIENT, which Swift cannot import (a macro casting -1 to a function pointer):
/// SQLite copies a bound text or blob before the call returns.
static inline sqlite3_destructor_type sg_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
