# MEMORYGRAPH_SANITIZE turns on sanitizers for every target, e.g. "address;undefined" (the asan
# preset) or "thread" (the tsan preset). ThreadSanitizer cannot be combined with address or leak.
# GCC and Clang take any of them; MSVC has AddressSanitizer only.
set(MEMORYGRAPH_SANITIZE "" CACHE STRING "Sanitizers to enable, e.g. address;undefined or thread")
if(MEMORYGRAPH_SANITIZE AND MSVC)
    if(NOT MEMORYGRAPH_SANITIZE STREQUAL "address")
        message(FATAL_ERROR "MEMORYGRAPH_SANITIZE: MSVC supports only address")
    endif()
    add_compile_options(/fsanitize=address)
    message(STATUS "Sanitizers: address (MSVC)")
elseif(MEMORYGRAPH_SANITIZE)
    if("thread" IN_LIST MEMORYGRAPH_SANITIZE
       AND ("address" IN_LIST MEMORYGRAPH_SANITIZE OR "leak" IN_LIST MEMORYGRAPH_SANITIZE))
        message(FATAL_ERROR "MEMORYGRAPH_SANITIZE: thread cannot be combined with address or leak")
    endif()
    string(REPLACE ";" "," _mg_san "${MEMORYGRAPH_SANITIZE}")
    add_compile_options(-fsanitize=${_mg_san} -fno-omit-frame-pointer)
    add_link_options(-fsanitize=${_mg_san})
    if("undefined" IN_LIST MEMORYGRAPH_SANITIZE)
        add_compile_options(-fno-sanitize-recover=undefined)
    endif()
    message(STATUS "Sanitizers: ${_mg_san}")
endif()
