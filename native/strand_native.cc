// What Strand needs from C++ that Node does not expose, for giving back the memory idle tenants
// freed (server/tenants/release-memory.ts):
//   lowMemoryNotification(): V8's full collection that also compacts and gives back the heap's
//     empty pages and shrinks the young generation, which its memory reducer otherwise does only
//     8 to 30 s after the process goes quiet, or never while anything allocates;
//   mallocTrim(): glibc's malloc_trim, which gives back the free pages inside the allocator's
//     arenas (absent elsewhere than glibc: the caller says so);
//   duplicate(fd): a second descriptor of the same open socket (fcntl F_DUPFD_CLOEXEC), for the
//     standby front door (server/front-door/standby.ts), which accepts on the engine's listening
//     socket while the engine is held and then closes its own descriptor, leaving the engine's
//     open (Node can listen on a descriptor but not duplicate one).
// It calls V8's C++ API, so it is built for the Node it runs on (npm ci builds it; after a Node
// upgrade, `npm rebuild` does).
#include <node_api.h>
#include <v8.h>
#include <cerrno>
#include <cstdlib> // defines __GLIBC__ on glibc
#include <cstring>
#include <fcntl.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

napi_value LowMemoryNotification(napi_env env, napi_callback_info info) {
  (void)env;
  (void)info;
  v8::Isolate::GetCurrent()->LowMemoryNotification();
  return nullptr;
}

#if defined(__GLIBC__)
napi_value MallocTrim(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  napi_get_boolean(env, malloc_trim(0) != 0, &result);
  return result;
}
#endif

napi_value Duplicate(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd = -1;
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok || argc < 1 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok || fd < 0) {
    napi_throw_type_error(env, nullptr, "duplicate(fd) takes a descriptor, a non-negative integer");
    return nullptr;
  }
  int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) {
    napi_throw_error(env, nullptr, std::strerror(errno));
    return nullptr;
  }
  napi_value result;
  napi_create_int32(env, copy, &result);
  return result;
}

bool Export(napi_env env, napi_value exports, const char* name, napi_callback callback) {
  napi_value fn;
  return napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, nullptr, &fn) == napi_ok &&
         napi_set_named_property(env, exports, name, fn) == napi_ok;
}

}  // namespace

NAPI_MODULE_INIT() {
  if (!Export(env, exports, "lowMemoryNotification", LowMemoryNotification)) return nullptr;
  if (!Export(env, exports, "duplicate", Duplicate)) return nullptr;
#if defined(__GLIBC__)
  if (!Export(env, exports, "mallocTrim", MallocTrim)) return nullptr;
#endif
  return exports;
}
