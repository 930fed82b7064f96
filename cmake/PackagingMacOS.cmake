# macOS layout: MemoryGraph.app at the top of the disk image, with the Qt frameworks, plugins
# and other non-system libraries that macdeployqt copies into the bundle
# (qt_generate_deploy_app_script, Qt 6.3 and later), then signed ad hoc again because
# macdeployqt rewrites the binaries (Apple silicon refuses to run unsigned code). Included by
# Packaging.cmake.
if(Qt6_VERSION VERSION_GREATER_EQUAL 6.5)
    qt_generate_deploy_app_script(TARGET memorygraph OUTPUT_SCRIPT _mg_deploy_script
        NO_UNSUPPORTED_PLATFORM_ERROR)
else()
    qt_generate_deploy_app_script(TARGET memorygraph FILENAME_VARIABLE _mg_deploy_script
        NO_UNSUPPORTED_PLATFORM_ERROR)
endif()
install(SCRIPT ${_mg_deploy_script})
install(CODE "
    set(_mg_app \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/$<TARGET_FILE_NAME:memorygraph>.app\")
    execute_process(COMMAND codesign --force --deep --sign - \"\${_mg_app}\"
        RESULT_VARIABLE _mg_signed)
    if(NOT _mg_signed EQUAL 0)
        message(FATAL_ERROR \"codesign failed on \${_mg_app}\")
    endif()")

install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md DESTINATION .)

set(CPACK_GENERATOR "DragNDrop")
set(CPACK_PACKAGE_FILE_NAME "MemoryGraph-${PROJECT_VERSION}-macos")
set(CPACK_DMG_VOLUME_NAME "Memory Graph")
set(CPACK_DMG_FORMAT UDZO)
# The licence is in the image; a click-through agreement (hdiutil resources) is not needed.
set(CPACK_DMG_SLA_USE_RESOURCE_FILE_LICENSE OFF)
