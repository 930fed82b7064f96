# memorygraph_add_test(NAME SOURCE MODULE LIBS ...): one Qt Test executable registered with CTest,
# labelled by module; widget tests run on the offscreen platform.
function(memorygraph_add_test name)
    cmake_parse_arguments(ARG "" "SOURCE;MODULE" "LIBS" ${ARGN})
    add_executable(${name} ${ARG_SOURCE})
    target_link_libraries(${name} PRIVATE Qt6::Test ${ARG_LIBS})
    memorygraph_set_warnings(${name})
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES
        LABELS "${ARG_MODULE}"
        TIMEOUT 300
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;MEMORYGRAPH_TEST_OUTPUT_DIR=${CMAKE_BINARY_DIR}/test-output")
endfunction()

# UNIX_ONLY names tests of POSIX behaviour (file modes, signals) that other systems skip.
function(memorygraph_add_tests_in module)
    cmake_parse_arguments(ARG "" "" "LIBS;UNIX_ONLY" ${ARGN})
    file(GLOB sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/${module}/tst_*.cpp")
    foreach(source IN LISTS sources)
        get_filename_component(base "${source}" NAME_WE)
        if(NOT UNIX AND base IN_LIST ARG_UNIX_ONLY)
            continue()
        endif()
        memorygraph_add_test(${base} SOURCE "${source}" MODULE ${module} LIBS ${ARG_LIBS})
    endforeach()
endfunction()
