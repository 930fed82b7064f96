# Windows layout: bin\memorygraph.exe with the Qt libraries and plugins that windeployqt copies
# beside it (qt_generate_deploy_app_script, Qt 6.3 and later), the MSVC runtime, the licence
# and README at the top. Included by Packaging.cmake; the installer itself is PackagingNsis.cmake.
if(Qt6_VERSION VERSION_GREATER_EQUAL 6.5)
    qt_generate_deploy_app_script(TARGET memorygraph OUTPUT_SCRIPT _mg_deploy_script
        NO_UNSUPPORTED_PLATFORM_ERROR)
else()
    qt_generate_deploy_app_script(TARGET memorygraph FILENAME_VARIABLE _mg_deploy_script
        NO_UNSUPPORTED_PLATFORM_ERROR)
endif()
install(SCRIPT ${_mg_deploy_script})

# vcruntime140.dll and friends, so no separate Visual C++ redistributable is needed.
set(CMAKE_INSTALL_SYSTEM_RUNTIME_DESTINATION ${CMAKE_INSTALL_BINDIR})
include(InstallRequiredSystemLibraries)

install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION . RENAME LICENSE.txt)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION .)

set(CPACK_GENERATOR "NSIS;ZIP")
set(CPACK_PACKAGE_FILE_NAME "MemoryGraph-${PROJECT_VERSION}-windows-x64")
