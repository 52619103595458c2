// What Strand needs from C++ that Node does not expose, for giving back the memory idle tenants
// freed (server/tenants/release-memory.ts):
//   lowMemoryNotification(): V8's full collection that also compacts and gives back the heap's
//     empty pages and shrinks the young generation, which its memory reducer otherwise does only
//     8 to 30 s after the process goes quiet, or never while anything allocates;
//   mallocTrim(): glibc's malloc_trim, which gives back the free pages inside the allocator's
//     arenas (absent elsewhere than glibc: the caller says so).
// It calls V8's C++ API, so it is built for the Node it runs on (npm ci builds it; after a Node
// upgrade, `npm rebuild` does).
#include <node_api.h>
#include <v8.h>
#include <cstdlib> // defines __GLIBC__ on glibc
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

bool Export(napi_env env, napi_value exports, const char* name, napi_callback callback) {
  napi_value fn;
  return napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, nullptr, &fn) == napi_ok &&
         napi_set_named_property(env, exports, name, fn) == napi_ok;
}

}  // namespace

NAPI_MODULE_INIT() {
  if (!Export(env, exports, "lowMemoryNotification", LowMemoryNotification)) return nullptr;
#if defined(__GLIBC__)
  if (!Export(env, exports, "mallocTrim", MallocTrim)) return nullptr;
#endif
  return exports;
}
