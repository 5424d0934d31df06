# The install layout's extras and the Debian package. The binaries and the bundled models are
# installed where they are built (app/cli, ui, models); docs/install.md describes the layout.
#   cmake --install build --prefix /opt/gsflow                   # bin/, share/gsflow/models, ...
#   cmake --build build --target package   (or: cd build && cpack) # gsflow_VERSION_amd64.deb

# The Slurm recipe as a command (scripts/slurm-generate), so that a cluster with the .deb has it.
install(PROGRAMS scripts/slurm-generate DESTINATION ${CMAKE_INSTALL_BINDIR}
        RENAME gsflow-slurm-generate)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gsflow)
set(CPACK_PACKAGE_VENDOR gsflow)
set(CPACK_PACKAGE_CONTACT "gsflow maintainers <maintainers@users.noreply.a-seed-59b5b7c5.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Biological sequence design with Gumbel-Softmax flow matching (command line, models)")
set(CPACK_PACKAGE_DESCRIPTION
    "gsflow designs DNA and peptide sequences with Gumbel-Softmax Flow and Score Matching, steered by classifiers; the bundled models, the gsflow command line, gsflow-slurm-generate for Slurm job arrays and, when built, the gsflow-studio desktop app.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # gsflow_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The runtime libraries (LibTorch, SQLite, fmt, spdlog, Qt 6 when the studio is built) are found
# by dpkg-shlibdeps from what the binaries link.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The OpenMP BLAS LibTorch wants (build-notes.md: the reference BLAS trains 2-3x slower), and
# what gsflow-slurm-generate submits to.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libopenblas0-openmp")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "slurm-client")
include(CPack)
