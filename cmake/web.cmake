# web.cmake - the `web` target: the WebAssembly build of libnnperf and the static page (web/, docs/design.md "The
# web page"), an emcmake sub-build in BUILD/web-wasm that writes BUILD/web (index.html, app.js, nnperf.js,
# nnperf.wasm, nnperf-wasm.js). It needs Debian's emscripten (emcmake, node) and the libyaml and jansson source
# trees that .ci/install-deps.sh fetches from Debian's source packages (NNPERF_WASM_DEPS); without them the target
# only says so, and the page's test (tests/web) is skipped. With NNPERF_WEB (default) the default target builds it,
# except in sanitized builds (the page does not change with the host's sanitizers).
option(NNPERF_WEB "Build the web page (web/, WebAssembly) with the default target where emscripten is installed" ON)
set(NNPERF_WASM_DEPS /usr/local/src/nnperf-wasm CACHE PATH "libyaml/ and jansson/ source trees for the web build")
find_program(NNPERF_EMCMAKE emcmake)
find_program(NNPERF_NODE NAMES node nodejs)
set(NNPERF_WEB_MISSING "")
if(NOT NNPERF_EMCMAKE OR NOT NNPERF_NODE)
  set(NNPERF_WEB_MISSING "emscripten is not installed (Debian: apt-get install emscripten)")
elseif(NOT EXISTS ${NNPERF_WASM_DEPS}/libyaml/src/api.c OR NOT EXISTS ${NNPERF_WASM_DEPS}/jansson/src/dump.c)
  set(NNPERF_WEB_MISSING "no libyaml and jansson sources in ${NNPERF_WASM_DEPS} (.ci/install-deps.sh fetches them)")
endif()
if(NNPERF_WEB_MISSING STREQUAL "")
  set(NNPERF_WEB_ALL "")
  if(NNPERF_WEB AND NOT NNPERF_SANITIZE AND NOT NNPERF_FUZZ)
    set(NNPERF_WEB_ALL ALL)
  endif()
  # Debian's emcc runs node scripts that require() Debian's node modules (acorn); a node from elsewhere does not
  # look in /usr/share/nodejs by itself
  set(web_env ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)
  add_custom_target(web ${NNPERF_WEB_ALL}
    COMMAND ${web_env} sh -c "test -f '${CMAKE_BINARY_DIR}/web-wasm/CMakeCache.txt' || '${NNPERF_EMCMAKE}' '${CMAKE_COMMAND}' -S '${CMAKE_SOURCE_DIR}/web' -B '${CMAKE_BINARY_DIR}/web-wasm' -DCMAKE_BUILD_TYPE=Release -DNNPERF_WEB_OUT='${CMAKE_BINARY_DIR}/web' -DNNPERF_WASM_DEPS='${NNPERF_WASM_DEPS}' >/dev/null"
    COMMAND ${web_env} ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR}/web-wasm --parallel 2
    COMMENT "WebAssembly build of the web page (${CMAKE_BINARY_DIR}/web)" VERBATIM)
else()
  message(STATUS "web page: not built: ${NNPERF_WEB_MISSING}")
  add_custom_target(web COMMAND ${CMAKE_COMMAND} -E echo "web page: not built: ${NNPERF_WEB_MISSING}" VERBATIM)
endif()
