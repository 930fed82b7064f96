# CPack: Debian package and tarball of the memorygraph executable (Linux).
#   cd build/release && cpack            # both generators
#   cd build/release && cpack -G DEB     # memorygraph_<version>_<arch>.deb

# Licence: GPL-3.0-or-later (QtHttpServer is GPL-3 on Linux distributions).
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md
    DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/installer/linux/copyright
    DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME "memorygraph")
set(CPACK_PACKAGE_VENDOR "Memory Graph project")
set(CPACK_PACKAGE_CONTACT "Memory Graph maintainers <maintainers@example.invalid>")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Agent-memory graph service with a desktop admin console")
set(CPACK_PACKAGE_DESCRIPTION
    "Memory Graph runs a memory graph service for AI agents on the local machine: it stores
memories as a graph in SQLite, indexes their embeddings for similarity recall and serves the
HTTP /v1 API on 127.0.0.1. The admin window lets operators browse nodes, edges and commits and
watch the requests served. With --headless it runs as a plain HTTP service.")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR "DEB;TGZ")

# Debian
set(CPACK_DEBIAN_PACKAGE_NAME "memorygraph")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "utils")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# dpkg-shlibdeps sees linked libraries only; the QSQLITE driver is a plugin loaded at run time.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")

# Source tarball (cpack --config CPackSourceConfig.cmake)
set(CPACK_SOURCE_GENERATOR "TGZ")
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build/" "/build-.*/" "\\\\.user$")

include(CPack)
