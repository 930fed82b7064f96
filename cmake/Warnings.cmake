# Warning flags applied per target so third-party headers (included as SYSTEM) never trip them.
option(MEMORYGRAPH_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)

function(memorygraph_set_warnings target)
    if(MSVC)
        # /permissive- and /utf-8 (the sources are UTF-8) belong to every MSVC target; all of
        # them come through here.
        target_compile_options(${target} PRIVATE /W4 /permissive- /utf-8)
        if(MEMORYGRAPH_WARNINGS_AS_ERRORS)
            target_compile_options(${target} PRIVATE /WX)
        endif()
    elseif(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
        target_compile_options(${target} PRIVATE
            -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
            -Wformat=2 -Wimplicit-fallthrough -Wcast-align)
        if(MEMORYGRAPH_WARNINGS_AS_ERRORS)
            target_compile_options(${target} PRIVATE -Werror)
        endif()
    endif()
    target_compile_definitions(${target} PRIVATE
        QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING QT_NO_FOREACH QT_NO_CONTEXTLESS_CONNECT)
endfunction()
