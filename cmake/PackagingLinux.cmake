# Linux layout (FHS under CMAKE_INSTALL_PREFIX, /usr in the packages) and the .deb/.rpm fields.
# Included by Packaging.cmake.
set(_mg_linux "${PROJECT_SOURCE_DIR}/installer/linux")

# Desktop integration: menu entry, icons, AppStream metainfo (software centres).
install(FILES ${PROJECT_SOURCE_DIR}/resources/memorygraph.desktop
    DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/memorygraph.png
    DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/256x256/apps)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/memorygraph.svg
    DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${_mg_linux}/org.memorygraph.MemoryGraph.metainfo.xml
    DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

# systemd user unit: `systemctl --user enable --now memorygraph` serves headless from login on.
# User units live in <prefix>/lib/systemd/user on every distribution (not the multiarch libdir).
configure_file(${_mg_linux}/memorygraph.service.in
    ${CMAKE_CURRENT_BINARY_DIR}/memorygraph.service @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/memorygraph.service DESTINATION lib/systemd/user)

# Documentation: licence, README, the Debian copyright file and changelog.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md
    ${_mg_linux}/copyright
    DESTINATION ${CMAKE_INSTALL_DOCDIR})

# Compressed with gzip -9n (no name or time stamp in the header), as Debian policy asks.
find_program(MEMORYGRAPH_GZIP gzip)
find_program(MEMORYGRAPH_HELP2MAN help2man)
set(_mg_generated_docs "")
if(MEMORYGRAPH_GZIP)
    set(_mg_changelog "${CMAKE_CURRENT_BINARY_DIR}/packaging/changelog")
    add_custom_command(OUTPUT ${_mg_changelog}.gz
        COMMAND ${CMAKE_COMMAND} -E copy ${_mg_linux}/changelog ${_mg_changelog}
        COMMAND ${MEMORYGRAPH_GZIP} -9nf ${_mg_changelog}
        DEPENDS ${_mg_linux}/changelog
        COMMENT "Compressing the package changelog"
        VERBATIM)
    list(APPEND _mg_generated_docs ${_mg_changelog}.gz)
    install(FILES ${_mg_changelog}.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})

    # memorygraph(1) from --help and --version plus installer/linux/memorygraph.h2m. The
    # program runs by its plain name so the synopsis reads "memorygraph", not a build path.
    if(MEMORYGRAPH_HELP2MAN)
        set(_mg_man "${CMAKE_CURRENT_BINARY_DIR}/packaging/memorygraph.1")
        add_custom_command(OUTPUT ${_mg_man}.gz
            COMMAND ${CMAKE_COMMAND} -E env "PATH=$<TARGET_FILE_DIR:memorygraph>:$ENV{PATH}"
                    ASAN_OPTIONS=detect_leaks=0
                    ${MEMORYGRAPH_HELP2MAN} --no-info --include ${_mg_linux}/memorygraph.h2m
                    --output ${_mg_man} memorygraph
            COMMAND ${MEMORYGRAPH_GZIP} -9nf ${_mg_man}
            DEPENDS memorygraph ${_mg_linux}/memorygraph.h2m
            COMMENT "Generating the memorygraph(1) manual page with help2man"
            VERBATIM)
        list(APPEND _mg_generated_docs ${_mg_man}.gz)
        install(FILES ${_mg_man}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
    else()
        message(STATUS "help2man not found: no memorygraph(1) manual page "
                       "(install the help2man package)")
    endif()
else()
    message(STATUS "gzip not found: no changelog or manual page in the packages")
endif()
add_custom_target(memorygraph_package_docs ALL DEPENDS ${_mg_generated_docs})

# Generators: the .rpm only where rpmbuild exists (Debian package rpm).
find_program(MEMORYGRAPH_RPMBUILD rpmbuild)
set(CPACK_GENERATOR "DEB;TGZ")
if(MEMORYGRAPH_RPMBUILD)
    list(INSERT CPACK_GENERATOR 1 RPM)
endif()

# Debian
set(CPACK_DEBIAN_PACKAGE_NAME "memorygraph")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "utils")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${MEMORYGRAPH_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# dpkg-shlibdeps sees linked libraries only; the QSQLITE driver is a plugin loaded at run time.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")

# RPM (built on Debian, so its dependencies are the shared libraries the binary links; they
# resolve on a distribution with Qt 6.4 or later, OpenSSL 3 and simdjson of the same soname).
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_LICENSE "GPL-3.0-or-later")
set(CPACK_RPM_PACKAGE_GROUP "Applications/System")
set(CPACK_RPM_PACKAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_RPM_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_RPM_PACKAGE_RELOCATABLE OFF)
set(CPACK_RPM_PACKAGE_AUTOREQ ON)
set(CPACK_RPM_PACKAGE_AUTOPROV OFF)
# No /usr/lib/.build-id links: they would clash with any other package of the same build.
set(CPACK_RPM_SPEC_MORE_DEFINE "%define _build_id_links none")
# Folders that belong to the filesystem and other packages: not claimed by this one.
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
    /usr/share/applications /usr/share/icons /usr/share/icons/hicolor
    /usr/share/icons/hicolor/256x256 /usr/share/icons/hicolor/256x256/apps
    /usr/share/icons/hicolor/scalable /usr/share/icons/hicolor/scalable/apps
    /usr/share/metainfo /usr/share/man /usr/share/man/man1 /usr/share/doc
    /usr/lib/systemd /usr/lib/systemd/user)
