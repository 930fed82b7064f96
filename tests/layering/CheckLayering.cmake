# Layering check, run as a CTest with `cmake -P`:
#   cmake -DSOURCE_DIR=<tree> -DQT_HEADERS_DIR=<qt6 include dir> -P CheckLayering.cmake
#
# Rules (see tests/layering/CMakeLists.txt):
#   service/ outside service/http/ and service/net/ includes no QtWidgets, QtGui, QtNetwork,
#   QtHttpServer or QtWebSockets header: the service stays a headless library.
#   ui/ includes no sqlite3.h, hnswlib, QtSql or QtHttpServer header, and from service/ only the
#   facade (memoryservice.h), its request and outcome types (api/), core/ values and the pure
#   rule model (rules/, which the rule editor validates with): the UI goes through the facade.
#
# A Qt header is recognised either by its module prefix (<QtGui/QColor>) or by looking the name up
# in the installed module's header folder (<QColor> exists in <QT_HEADERS_DIR>/QtGui/).
cmake_minimum_required(VERSION 3.21)

if(NOT SOURCE_DIR OR NOT IS_DIRECTORY "${SOURCE_DIR}")
    message(FATAL_ERROR "CheckLayering: SOURCE_DIR '${SOURCE_DIR}' is not a directory")
endif()
if(NOT QT_HEADERS_DIR OR NOT IS_DIRECTORY "${QT_HEADERS_DIR}/QtCore")
    message(FATAL_ERROR "CheckLayering: QT_HEADERS_DIR '${QT_HEADERS_DIR}' has no QtCore folder")
endif()

set(_violations "")
set(_checked 0)

# _mg_check(<folder> <exclude-regex> <qt-modules> <path-regex> [<service-allow-regex>])
# Reports every include in <folder> (files whose relative path matches <exclude-regex> skipped)
# that names a header of one of <qt-modules>, whose name matches <path-regex>, or, when a
# <service-allow-regex> is given, that names a service/ header the regex does not allow.
function(_mg_check folder exclude qt_modules path_regex)
    set(service_allow "${ARGV4}")
    file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${SOURCE_DIR}"
        "${SOURCE_DIR}/${folder}/*.h" "${SOURCE_DIR}/${folder}/*.hpp"
        "${SOURCE_DIR}/${folder}/*.cpp" "${SOURCE_DIR}/${folder}/*.cc")
    set(violations "${_violations}")
    set(checked ${_checked})
    foreach(file IN LISTS files)
        if(exclude AND file MATCHES "${exclude}")
            continue()
        endif()
        math(EXPR checked "${checked} + 1")
        file(STRINGS "${SOURCE_DIR}/${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
        foreach(line IN LISTS lines)
            if(NOT line MATCHES "#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]")
                continue()
            endif()
            set(header "${CMAKE_MATCH_1}")
            set(reason "")
            if(path_regex AND header MATCHES "${path_regex}")
                set(reason "forbidden path")
            elseif(service_allow AND header MATCHES "^service/" AND NOT header MATCHES "${service_allow}")
                set(reason "service internal")
            else()
                foreach(module IN LISTS qt_modules)
                    if(header MATCHES "^${module}/" OR EXISTS "${QT_HEADERS_DIR}/${module}/${header}")
                        set(reason "${module} header")
                        break()
                    endif()
                endforeach()
            endif()
            if(reason)
                list(APPEND violations "${file}: #include ${header} (${reason})")
            endif()
        endforeach()
    endforeach()
    set(_violations "${violations}" PARENT_SCOPE)
    set(_checked ${checked} PARENT_SCOPE)
endfunction()

_mg_check(service "^service/(http|net)/"
    "QtWidgets;QtGui;QtOpenGLWidgets;QtPrintSupport;QtNetwork;QtHttpServer;QtWebSockets" "")
_mg_check(ui ""
    "QtSql;QtHttpServer"
    "^(sqlite3\\.h|sqlite3ext\\.h|hnswlib/)"
    "^service/(memoryservice\\.h|api/|core/|rules/)")

if(_checked EQUAL 0)
    message(FATAL_ERROR "CheckLayering: no sources found under ${SOURCE_DIR}/service or /ui")
endif()

list(LENGTH _violations _count)
if(_count GREATER 0)
    list(JOIN _violations "\n  " _text)
    message(FATAL_ERROR "${_count} layering violation(s), ${_checked} files checked:\n  ${_text}\n"
        "service/ outside http/ and net/ must not use widget, GUI or network headers; "
        "ui/ must reach the service only through its facade, api/ and core/ types and the rule model.")
endif()
message(STATUS "layering: ${_checked} files checked, no violations")
