# The Windows installer (CPack NSIS): Start-menu shortcut, uninstaller, Add/Remove Programs
# entry with icon and links, an optional "Start Memory Graph when Windows starts" on the finish
# page, and an uninstaller that keeps the user's data unless asked to remove it (both in
# installer/windows/memorygraph.nsh). Read on every platform: tests/packaging compiles the
# script with Debian's makensis.
set(_mg_windows "${PROJECT_SOURCE_DIR}/installer/windows")
file(TO_NATIVE_PATH "${_mg_windows}/memorygraph.ico" _mg_ico)
file(TO_NATIVE_PATH "${_mg_windows}/memorygraph.nsh" _mg_nsh)

set(CPACK_NSIS_PACKAGE_NAME "Memory Graph")
set(CPACK_NSIS_DISPLAY_NAME "Memory Graph")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "Memory Graph")
set(CPACK_PACKAGE_INSTALL_REGISTRY_KEY "Memory Graph")
set(CPACK_NSIS_INSTALL_ROOT "$PROGRAMFILES64")
set(CPACK_NSIS_UNINSTALL_NAME "Uninstall")
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_MANIFEST_DPI_AWARE ON)

# Start menu: "Memory Graph" for bin\memorygraph.exe (and the uninstaller).
set(CPACK_NSIS_EXECUTABLES_DIRECTORY "bin")
set(CPACK_PACKAGE_EXECUTABLES "memorygraph" "Memory Graph")

# Add/Remove Programs
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\memorygraph.exe")
set(CPACK_NSIS_URL_INFO_ABOUT "${PROJECT_HOMEPAGE_URL}")
set(CPACK_NSIS_HELP_LINK "${PROJECT_HOMEPAGE_URL}")
set(CPACK_NSIS_CONTACT "${MEMORYGRAPH_CONTACT}")

# Icons and the additions of memorygraph.nsh, placed ahead of the installer's pages (this code
# replaces what CPACK_NSIS_MUI_ICON / _UNIICON would generate).
set(CPACK_NSIS_INSTALLER_MUI_ICON_CODE "!define MUI_ICON \"${_mg_ico}\"
!define MUI_UNICON \"${_mg_ico}\"
!include \"${_mg_nsh}\"")
set(CPACK_NSIS_EXTRA_INSTALL_COMMANDS "Call MemoryGraphRegister")
set(CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS "Call un.MemoryGraphUnregister")
