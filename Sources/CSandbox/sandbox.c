#include "CSandbox.h"
