# MEMORYGRAPH_SANITIZE=address;undefined turns on sanitizers for every target.
set(MEMORYGRAPH_SANITIZE "" CACHE STRING "Sanitizers to enable, e.g. address;undefined")
if(MEMORYGRAPH_SANITIZE)
    string(REPLACE ";" "," _mg_san "${MEMORYGRAPH_SANITIZE}")
    add_compile_options(-fsanitize=${_mg_san} -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=${_mg_san})
endif()
