# Runs clang-format over the project's C++ sources; used by the format and format-check targets.
#   cmake -DMODE=fix|check -DCLANG_FORMAT=<clang-format> -DSOURCE_DIR=<root> -P FormatSources.cmake
# The file list is taken when the target runs, so new files are covered without reconfiguring.
cmake_minimum_required(VERSION 3.21)

set(_globs "")
foreach(dir IN ITEMS service ui app tests)
    foreach(ext IN ITEMS h hpp cpp cc)
        list(APPEND _globs "${SOURCE_DIR}/${dir}/*.${ext}")
    endforeach()
endforeach()
file(GLOB_RECURSE _files LIST_DIRECTORIES false ${_globs})
# The layering fixtures are sample inputs for the layering self-test, not project code.
list(FILTER _files EXCLUDE REGEX "/tests/layering/fixture/")
list(SORT _files)
list(LENGTH _files _count)

if(MODE STREQUAL "fix")
    execute_process(COMMAND ${CLANG_FORMAT} -i --style=file ${_files}
        WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
        message(FATAL_ERROR "clang-format failed (${_rc})")
    endif()
    message(STATUS "format: ${_count} files formatted")
elseif(MODE STREQUAL "check")
    execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror --style=file ${_files}
        WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE _rc ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
        string(REGEX MATCHALL "[^\n]*: error: code should be clang-formatted" _hits "${_err}")
        set(_bad "")
        foreach(hit IN LISTS _hits)
            string(REGEX REPLACE ":[0-9]+:[0-9]+: error: .*" "" hit "${hit}")
            file(RELATIVE_PATH hit "${SOURCE_DIR}" "${hit}")
            list(APPEND _bad "${hit}")
        endforeach()
        list(REMOVE_DUPLICATES _bad)
        list(LENGTH _bad _badcount)
        list(JOIN _bad "\n  " _badtext)
        message(FATAL_ERROR "format-check: ${_badcount} of ${_count} files need clang-format:\n"
            "  ${_badtext}\nRun the format target to fix them.")
    endif()
    message(STATUS "format-check: ${_count} files are formatted")
else()
    message(FATAL_ERROR "FormatSources: MODE must be fix or check, not '${MODE}'")
endif()
