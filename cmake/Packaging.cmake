# Installers, built with CPack from the install tree. Common metadata here; each platform's
# install layout and generators in its own file:
#   Linux    PackagingLinux.cmake    .deb, .rpm (when rpmbuild is installed) and .tar.gz,
#                                    with desktop entry, AppStream metainfo, man page and a
#                                    systemd user unit
#   Windows  PackagingWindows.cmake  NSIS installer and .zip, Qt deployed by windeployqt
#   macOS    PackagingMacOS.cmake    MemoryGraph.app in a DragNDrop .dmg, Qt by macdeployqt
# The NSIS settings (PackagingNsis.cmake) are read on every platform, so that the installer
# script can also be compiled on Linux (tests/packaging).
#   cd build/release && cpack                # this platform's generators
#   cd build/release && cpack -G DEB         # one of them

# Licence: GPL-3.0-or-later (QtHttpServer is GPL-3).
set(CPACK_VERBATIM_VARIABLES ON) # values reach CPack exactly as written here
set(CPACK_PACKAGE_NAME "memorygraph")
set(CPACK_PACKAGE_VENDOR "${MEMORYGRAPH_VENDOR}")
set(CPACK_PACKAGE_CONTACT "${MEMORYGRAPH_CONTACT}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Agent-memory graph service with a desktop admin console")
# Lines of at most 80 characters (Debian policy for the extended description).
set(CPACK_PACKAGE_DESCRIPTION
    "Memory Graph runs a memory graph service for AI agents on the local machine: it
stores memories as a graph in SQLite, indexes their embeddings for similarity
recall and serves the HTTP /v1 API and the Model Context Protocol on 127.0.0.1.
The admin window lets operators browse nodes, edges and commits and watch the
requests served. With --headless it runs as a plain HTTP service, and a systemd
user unit starts it at login.")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_STRIP_FILES ON)

if(WIN32)
    include(PackagingWindows)
elseif(APPLE)
    include(PackagingMacOS)
else()
    include(PackagingLinux)
endif()
include(PackagingNsis)

# Source tarball (cpack --config CPackSourceConfig.cmake)
set(CPACK_SOURCE_GENERATOR "TGZ")
set(CPACK_SOURCE_IGNORE_FILES "/\\.git/" "/build/" "/build-.*/" "\\.user$")

include(CPack)
