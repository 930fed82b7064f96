# `format` rewrites the project's C++ sources with clang-format (.clang-format at the root);
# `format-check` only reports files that differ and fails if any do. Both are skipped with a
# message when clang-format is not installed.
find_program(MEMORYGRAPH_CLANG_FORMAT NAMES clang-format-14 clang-format
    DOC "clang-format used by the format and format-check targets")

if(MEMORYGRAPH_CLANG_FORMAT AND NOT TARGET format)
    set(_mg_format_script "${CMAKE_CURRENT_LIST_DIR}/FormatSources.cmake")
    add_custom_target(format
        COMMAND ${CMAKE_COMMAND} -DMODE=fix -DCLANG_FORMAT=${MEMORYGRAPH_CLANG_FORMAT}
                -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -P ${_mg_format_script}
        COMMENT "clang-format -i on service/, ui/, app/ and tests/"
        VERBATIM USES_TERMINAL)
    add_custom_target(format-check
        COMMAND ${CMAKE_COMMAND} -DMODE=check -DCLANG_FORMAT=${MEMORYGRAPH_CLANG_FORMAT}
                -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -P ${_mg_format_script}
        COMMENT "clang-format --dry-run -Werror on service/, ui/, app/ and tests/"
        VERBATIM USES_TERMINAL)
elseif(NOT MEMORYGRAPH_CLANG_FORMAT)
    message(STATUS "clang-format not found: the format and format-check targets are not available")
endif()
