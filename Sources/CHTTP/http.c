// The host's HTTP transport on libcurl: see CHTTP.h.
#include "CHTTP.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

/// A transfer: the easy handle and what must live as long as it does.
typedef struct sg_http_transfer {
    CURL *easy;
    struct curl_slist *headers;
    void *context;
    sg_http_address_check check_address;
    void *check_context;
    /// Why the address check refused an address ("" while it refused none).
    char denied[512];
    char error[CURL_ERROR_SIZE];
} sg_http_transfer;

/// Every socket libcurl opens for a transfer: refused (CURL_SOCKET_BAD, so the connection fails
/// and libcurl tries the name's next address) unless the transfer's address check allows it.
static curl_socket_t open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)purpose;
    sg_http_transfer *transfer = clientp;
    if (transfer->check_address &&
        !transfer->check_address(&address->addr, address->addrlen, transfer->check_context, transfer->denied,
                                 sizeof transfer->denied)) {
        if (!transfer->denied[0]) snprintf(transfer->denied, sizeof transfer->denied, "the address is denied");
        return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_result = CURLE_FAILED_INIT;
static void global_init(void) { global_result = curl_global_init(CURL_GLOBAL_DEFAULT); }

void *sg_http_multi_new(long max_connections) {
    pthread_once(&global_once, global_init);
    if (global_result != CURLE_OK) return NULL;
    CURLM *multi = curl_multi_init();
    if (multi) {
        // Connections kept open for reuse: at most as many as may be on the wire at once. With a
        // share per app (sg_http_share_new) both limits count each share's cache: one app's.
        curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, max_connections);
        curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, max_connections);
    }
    return multi;
}

void sg_http_multi_free(void *multi) { curl_multi_cleanup((CURLM *)multi); }

void *sg_http_share_new(void) {
    CURLSH *share = curl_share_init();
    if (!share) return NULL;
    // Connections, TLS sessions and resolved names: a request on a connection another app's
    // request used could be read as part of it (a server's parser at odds with libcurl's), a
    // resumed TLS session would tie the two apps together for the server, and how fast a name
    // resolves would tell an app which names another had just looked up. Used from one thread:
    // no locks.
    if (curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT) != CURLSHE_OK ||
        curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) != CURLSHE_OK ||
        curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS) != CURLSHE_OK) {
        curl_share_cleanup(share);
        return NULL;
    }
    return share;
}

void sg_http_share_free(void *share) { curl_share_cleanup((CURLSH *)share); }

static int has_header(const sg_http_request *request, const char *name) {
    size_t length = strlen(name);
    for (size_t i = 0; i < request->header_count; i++) {
        const char *line = request->headers[i];
        if (strncasecmp(line, name, length) == 0 && line[length] == ':') return 1;
    }
    return 0;
}

static void free_transfer(sg_http_transfer *transfer) {
    if (transfer->easy) curl_easy_cleanup(transfer->easy);
    curl_slist_free_all(transfer->headers);
    free(transfer);
}

static int append_header(sg_http_transfer *transfer, const char *line) {
    struct curl_slist *next = curl_slist_append(transfer->headers, line);
    if (!next) return 0;
    transfer->headers = next;
    return 1;
}

void *sg_http_start(void *multi, const sg_http_request *request, char *error, size_t error_size) {
    sg_http_transfer *transfer = calloc(1, sizeof *transfer);
    if (!transfer || !(transfer->easy = curl_easy_init())) {
        snprintf(error, error_size, "libcurl could not make a transfer (out of memory)");
        if (transfer) free(transfer);
        return NULL;
    }
    CURL *easy = transfer->easy;
    transfer->context = request->context;
    transfer->check_address = request->check_address;
    transfer->check_context = request->check_context;
    for (size_t i = 0; i < request->header_count; i++) {
        if (!append_header(transfer, request->headers[i])) goto oom;
    }
    // No `Expect: 100-continue` wait before a body, and no form content type curl would add to
    // a body the extension did not label.
    if (!append_header(transfer, "Expect:")) goto oom;
    if (request->has_body && !has_header(request, "Content-Type") && !append_header(transfer, "Content-Type:")) goto oom;

    CURLcode set = CURLE_OK;
#define SET(option, value) \
    if (set == CURLE_OK) set = curl_easy_setopt(easy, option, value)
    SET(CURLOPT_URL, request->url);
    SET(CURLOPT_ERRORBUFFER, transfer->error);
    SET(CURLOPT_PRIVATE, transfer);
    SET(CURLOPT_NOSIGNAL, 1L);
    // The connections and TLS sessions of the request's app alone.
    if (request->share) SET(CURLOPT_SHARE, request->share);
    // http and https only, redirects included (never file:, never a Unix socket); no proxy from
    // the host's environment.
    SET(CURLOPT_PROTOCOLS_STR, "http,https");
    SET(CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    SET(CURLOPT_NOPROXY, "*");
    SET(CURLOPT_FOLLOWLOCATION, 1L);
    SET(CURLOPT_MAXREDIRS, 10L);
    // Where it connects: checked on the address of each socket (after DNS, for each redirect).
    SET(CURLOPT_OPENSOCKETFUNCTION, open_socket);
    SET(CURLOPT_OPENSOCKETDATA, transfer);
    SET(CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
#if LIBCURL_VERSION_NUM >= 0x075700 // 7.87.0
    // A transfer ended while its name resolves (cancelled, timed out) does not wait for the
    // resolver's thread: a name server that never answers held the host's HTTP thread, and every
    // extension's transfers, for about 10 s a time.
    SET(CURLOPT_QUICK_EXIT, 1L);
#endif
    SET(CURLOPT_BUFFERSIZE, 128L * 1024L);
    SET(CURLOPT_HTTPHEADER, transfer->headers);
    SET(CURLOPT_HEADERFUNCTION, request->on_header);
    SET(CURLOPT_HEADERDATA, request->context);
    SET(CURLOPT_WRITEFUNCTION, request->on_body);
    SET(CURLOPT_WRITEDATA, request->context);
    const char *method = request->method ? request->method : "GET";
    if (strcmp(method, "HEAD") == 0) {
        SET(CURLOPT_NOBODY, 1L);
    } else if (strcmp(method, "GET") == 0 && !request->has_body) {
        SET(CURLOPT_HTTPGET, 1L);
    } else if (strcmp(method, "POST") != 0) {
        SET(CURLOPT_CUSTOMREQUEST, method);
    }
    if (request->has_body) {
        SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
        SET(CURLOPT_COPYPOSTFIELDS, request->body_length ? (const char *)request->body : "");
    } else if (strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0 || strcmp(method, "PATCH") == 0) {
        // An empty body said as such (Content-Length: 0): the extension's own header is not sent.
        SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)0);
        SET(CURLOPT_COPYPOSTFIELDS, "");
    }
#undef SET
    if (set != CURLE_OK) {
        snprintf(error, error_size, "%s", curl_easy_strerror(set));
        free_transfer(transfer);
        return NULL;
    }
    CURLMcode added = curl_multi_add_handle((CURLM *)multi, easy);
    if (added != CURLM_OK) {
        snprintf(error, error_size, "%s", curl_multi_strerror(added));
        free_transfer(transfer);
        return NULL;
    }
    return transfer;
oom:
    snprintf(error, error_size, "libcurl could not hold the request's headers (out of memory)");
    free_transfer(transfer);
    return NULL;
}

void sg_http_finish(void *multi, void *transfer) {
    sg_http_transfer *t = transfer;
    curl_multi_remove_handle((CURLM *)multi, t->easy);
    free_transfer(t);
}

void sg_http_resume(void *transfer) { curl_easy_pause(((sg_http_transfer *)transfer)->easy, CURLPAUSE_CONT); }

long sg_http_status(void *transfer) {
    long status = 0;
    curl_easy_getinfo(((sg_http_transfer *)transfer)->easy, CURLINFO_RESPONSE_CODE, &status);
    return status;
}

int sg_http_perform(void *multi) {
    int running = 0;
    return curl_multi_perform((CURLM *)multi, &running) == CURLM_OK ? 0 : -1;
}

int sg_http_poll(void *multi, int timeout_ms) {
    return curl_multi_poll((CURLM *)multi, NULL, 0, timeout_ms, NULL) == CURLM_OK ? 0 : -1;
}

static sg_http_outcome outcome_of(CURLcode code) {
    switch (code) {
    case CURLE_OK: return SG_HTTP_OK;
    case CURLE_OPERATION_TIMEDOUT: return SG_HTTP_TIMED_OUT;
    case CURLE_COULDNT_CONNECT: return SG_HTTP_REFUSED;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY: return SG_HTTP_HOST_NOT_FOUND;
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT: return SG_HTTP_UNSUPPORTED_URL;
    case CURLE_TOO_MANY_REDIRECTS: return SG_HTTP_TOO_MANY_REDIRECTS;
    case CURLE_PEER_FAILED_VERIFICATION: return SG_HTTP_TLS_UNTRUSTED;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_SHUTDOWN_FAILED: return SG_HTTP_TLS_FAILED;
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_WEIRD_SERVER_REPLY: return SG_HTTP_CONNECTION_LOST;
    default: return SG_HTTP_OTHER;
    }
}

int sg_http_done(void *multi, void **transfer, void **context, sg_http_outcome *outcome, const char **message) {
    int left = 0;
    CURLMsg *msg;
    while ((msg = curl_multi_info_read((CURLM *)multi, &left))) {
        if (msg->msg != CURLMSG_DONE) continue;
        sg_http_transfer *t = NULL;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&t);
        if (!t) continue;
        *transfer = t;
        *context = t->context;
        *outcome = outcome_of(msg->data.result);
        *message = t->error[0] ? t->error : curl_easy_strerror(msg->data.result);
        if (*outcome == SG_HTTP_REFUSED && t->denied[0]) {
            *outcome = SG_HTTP_DENIED;
            *message = t->denied;
        }
        return 1;
    }
    return 0;
}

void sg_http_wakeup(void *multi) { curl_multi_wakeup((CURLM *)multi); }

size_t sg_http_pause(void) { return CURL_WRITEFUNC_PAUSE; }

const char *sg_http_version(void) { return curl_version(); }
