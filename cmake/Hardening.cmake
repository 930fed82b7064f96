# Hardening of the Linux binaries, as Debian builds its own packages (lintian checks them):
# FORTIFY_SOURCE where the build optimises (it needs -O), full RELRO with immediate binding.
# GCC and Clang on Linux only; MSVC has /GS on by default.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    if(NOT MEMORYGRAPH_SANITIZE)
        add_compile_definitions($<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:_FORTIFY_SOURCE=2>)
    endif()
    add_link_options(LINKER:-z,relro LINKER:-z,now)
endif()
