// CHTTP: the host's HTTP transport on libcurl (HTTP/1.1, HTTP/2 and TLS from the system's
// libcurl and OpenSSL). Only what Swift cannot do: curl_easy_setopt is variadic, and its
// constants are macros. The transfers of one host run on one multi handle, driven by one
// thread of the host (HTTPTransport).
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#ifdef __cplusplus
extern "C" {
#endif


/// Decides whether the host may connect to `address` (every address libcurl is about to open a
/// socket to: each of a name's addresses, each redirect's): returns 1 to connect, else 0 with why
/// not in `why` (NUL-terminated, at most `why_size` bytes).
typedef int (*sg_http_address_check)(const struct sockaddr *address, unsigned int length, void *context, char *why, size_t why_size);

/// Hears a header line (status lines included, CRLF included) or a chunk of the body; returns
/// the bytes consumed (the size given), or `sg_http_pause()` for a body chunk to hold it back.
typedef size_t (*sg_http_callback)(char *bytes, size_t size, size_t count, void *context);

/// One request: copied into the transfer (nothing here needs to outlive the call).
typedef struct sg_http_request {
    const char *url;
    const char *method;              ///< an HTTP token (checked by the host's request policy)
    const char *const *headers;      ///< "Name: value" lines
    size_t header_count;
    int has_body;                    ///< 0: no body; else `body_length` bytes at `body` (may be 0)
    const void *body;
    size_t body_length;
    long connect_timeout_ms;
    void *context;                   ///< passed to the callbacks; returned by sg_http_multi_done
    sg_http_callback on_header;
    sg_http_callback on_body;
    sg_http_address_check check_address; ///< NULL: any address
    void *check_context;
    void *share;                     ///< the app's connections and TLS sessions (sg_http_share_new), or NULL: the multi's
} sg_http_request;

/// How a transfer ended, by kind (for the NSURLError code the extension sees).
typedef enum sg_http_outcome {
    SG_HTTP_OK = 0,
    SG_HTTP_TIMED_OUT,          ///< -1001
    SG_HTTP_CONNECTION_LOST,    ///< -1005: reset, closed early, body shorter than its length
    SG_HTTP_REFUSED,            ///< -1004: could not connect
    SG_HTTP_HOST_NOT_FOUND,     ///< -1003
    SG_HTTP_UNSUPPORTED_URL,    ///< -1002
    SG_HTTP_TOO_MANY_REDIRECTS, ///< -1007
    SG_HTTP_TLS_UNTRUSTED,      ///< -1202: the server's certificate
    SG_HTTP_TLS_FAILED,         ///< -1200
    SG_HTTP_DENIED,             ///< -1004: the address check refused every address it was to connect to
    SG_HTTP_OTHER               ///< -1
} sg_http_outcome;

/// A multi handle (curl_global_init on first use) with at most `max_connections` connections
/// open in a connection cache (the multi's, or each share's), idle ones kept for reuse included;
/// NULL if libcurl cannot make one.
void *sg_http_multi_new(long max_connections);
/// Frees the multi handle; every transfer must have been removed and freed.
void sg_http_multi_free(void *multi);
/// A cache of connections, TLS sessions and resolved names of their own for the transfers given
/// it (one app's):
/// for the multi handle's thread alone. NULL if libcurl cannot make one.
void *sg_http_share_new(void);
/// Frees a share and closes its connections; no transfer may still use it.
void sg_http_share_free(void *share);
/// A transfer for `request`, added to `multi`; NULL with a message in `error` if curl refuses it.
void *sg_http_start(void *multi, const sg_http_request *request, char *error, size_t error_size);
/// Removes a transfer from its multi handle and frees it (its connection may be kept for reuse).
void sg_http_finish(void *multi, void *transfer);
/// Lets a transfer held back by `sg_http_pause()` go on (may call its body callback at once).
void sg_http_resume(void *transfer);
/// The status code of the latest response of a transfer (0 before one).
long sg_http_status(void *transfer);
/// Runs what is ready without waiting. Returns 0, or -1 when the multi handle failed.
int sg_http_perform(void *multi);
/// Waits at most `timeout_ms` for something to do (or for `sg_http_wakeup`). Returns 0, or -1
/// when the multi handle failed.
int sg_http_poll(void *multi, int timeout_ms);
/// The next transfer that ended since the last perform: its context, outcome and curl's message.
/// Returns 0 when none is left.
int sg_http_done(void *multi, void **transfer, void **context, sg_http_outcome *outcome, const char **message);
/// Interrupts a `sg_http_step` waiting on another thread.
void sg_http_wakeup(void *multi);
/// What a body callback returns to hold a chunk back (the transfer pauses; curl keeps the chunk).
size_t sg_http_pause(void);
/// libcurl's version, e.g. "libcurl/7.88.1 OpenSSL/3.0.17 ...".
const char *sg_http_version(void);

#ifdef __cplusplus
}
#endif
