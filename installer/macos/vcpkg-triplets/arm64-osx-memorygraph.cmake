# vcpkg triplet of the macOS installer build (tools/fetch-desktop-deps.sh): static libraries for
# Apple silicon that run on the same oldest macOS as the app bundle (CMAKE_OSX_DEPLOYMENT_TARGET).
set(VCPKG_TARGET_ARCHITECTURE arm64)
set(VCPKG_CRT_LINKAGE dynamic)
set(VCPKG_LIBRARY_LINKAGE static)
set(VCPKG_CMAKE_SYSTEM_NAME Darwin)
set(VCPKG_OSX_ARCHITECTURES arm64)
set(VCPKG_OSX_DEPLOYMENT_TARGET 11.0)
