# grammar.cmake — fetch the tree-sitter-python grammar at configure time.
#
# The grammar is third-party source: it is never committed. `npm pack` fetches
# the pinned package tarball from the npm registry into the build tree, its
# SHA-256 is checked against the pin, and only the C sources are extracted.
# A verified extraction is reused on later configures (a stamp records the
# checksum it came from). CA_GRAMMAR_TARBALL points to a local copy of the
# same tarball for machines without registry access.
#
# Sets CA_GRAMMAR_SRC_DIR: the folder holding parser.c, scanner.c and the
# grammar's private tree_sitter/*.h headers.

set(CA_GRAMMAR_PACKAGE tree-sitter-python)
set(CA_GRAMMAR_VERSION 0.23.6)
set(CA_GRAMMAR_SHA256 aab5b860d93dbf84b37fed532f7dacc0468ede5387d0c74911d68f964287662a)
set(CA_GRAMMAR_TARBALL "" CACHE FILEPATH
    "Local ${CA_GRAMMAR_PACKAGE}-${CA_GRAMMAR_VERSION}.tgz to use instead of `npm pack` (offline builds)")

set(_ca_gdir "${CMAKE_BINARY_DIR}/_grammar")
set(CA_GRAMMAR_SRC_DIR "${_ca_gdir}/src")
set(_ca_gstamp "${CA_GRAMMAR_SRC_DIR}/.verified")
set(_ca_gneeded parser.c scanner.c tree_sitter/parser.h tree_sitter/array.h tree_sitter/alloc.h)

function(_ca_grammar_is_extracted out)
    set(ok FALSE)
    if(EXISTS "${_ca_gstamp}")
        file(READ "${_ca_gstamp}" stamp)
        string(STRIP "${stamp}" stamp)
        if(stamp STREQUAL CA_GRAMMAR_SHA256)
            set(ok TRUE)
            foreach(f IN LISTS _ca_gneeded)
                if(NOT EXISTS "${CA_GRAMMAR_SRC_DIR}/${f}")
                    set(ok FALSE)
                endif()
            endforeach()
        endif()
    endif()
    set(${out} ${ok} PARENT_SCOPE)
endfunction()

function(_ca_sha256_matches file out)
    set(ok FALSE)
    if(EXISTS "${file}")
        file(SHA256 "${file}" sum)
        if(sum STREQUAL CA_GRAMMAR_SHA256)
            set(ok TRUE)
        endif()
    endif()
    set(${out} ${ok} PARENT_SCOPE)
endfunction()

_ca_grammar_is_extracted(_ca_have_grammar)
if(NOT _ca_have_grammar)
    file(MAKE_DIRECTORY "${_ca_gdir}")
    if(CA_GRAMMAR_TARBALL)
        set(_ca_tgz "${CA_GRAMMAR_TARBALL}")
        if(NOT EXISTS "${_ca_tgz}")
            message(FATAL_ERROR "CA_GRAMMAR_TARBALL=${_ca_tgz} does not exist")
        endif()
    else()
        set(_ca_tgz "${_ca_gdir}/${CA_GRAMMAR_PACKAGE}-${CA_GRAMMAR_VERSION}.tgz")
        _ca_sha256_matches("${_ca_tgz}" _ca_ok)
        if(NOT _ca_ok)
            file(REMOVE "${_ca_tgz}")
            find_program(CA_NPM npm)
            if(NOT CA_NPM)
                message(FATAL_ERROR
                    "npm is needed to fetch ${CA_GRAMMAR_PACKAGE}@${CA_GRAMMAR_VERSION} "
                    "(run scripts/bootstrap.sh), or pass -DCA_GRAMMAR_TARBALL=/path/to/"
                    "${CA_GRAMMAR_PACKAGE}-${CA_GRAMMAR_VERSION}.tgz")
            endif()
            message(STATUS "Fetching ${CA_GRAMMAR_PACKAGE}@${CA_GRAMMAR_VERSION} with npm pack")
            execute_process(
                COMMAND "${CMAKE_COMMAND}" -E env NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false
                        "${CA_NPM}" pack "${CA_GRAMMAR_PACKAGE}@${CA_GRAMMAR_VERSION}"
                WORKING_DIRECTORY "${_ca_gdir}"
                RESULT_VARIABLE _ca_rc
                OUTPUT_VARIABLE _ca_out
                ERROR_VARIABLE _ca_err)
            if(NOT _ca_rc EQUAL 0 OR NOT EXISTS "${_ca_tgz}")
                message(FATAL_ERROR
                    "npm pack ${CA_GRAMMAR_PACKAGE}@${CA_GRAMMAR_VERSION} failed (${_ca_rc}):\n"
                    "${_ca_err}\nOffline? Pass -DCA_GRAMMAR_TARBALL=/path/to/the.tgz")
            endif()
        endif()
    endif()
    _ca_sha256_matches("${_ca_tgz}" _ca_ok)
    if(NOT _ca_ok)
        file(SHA256 "${_ca_tgz}" _ca_sum)
        message(FATAL_ERROR
            "Checksum mismatch for ${_ca_tgz}:\n"
            "  expected SHA-256 ${CA_GRAMMAR_SHA256}\n"
            "  got      SHA-256 ${_ca_sum}\n"
            "Refusing to build a grammar that is not the pinned ${CA_GRAMMAR_PACKAGE}@${CA_GRAMMAR_VERSION}.")
    endif()

    # Extract beside the destination, then swap in, so an interrupted
    # configure never leaves a half-written source folder behind a stamp.
    set(_ca_tmp "${_ca_gdir}/extract.tmp")
    file(REMOVE_RECURSE "${_ca_tmp}" "${CA_GRAMMAR_SRC_DIR}")
    file(ARCHIVE_EXTRACT INPUT "${_ca_tgz}" DESTINATION "${_ca_tmp}"
         PATTERNS package/src/parser.c package/src/scanner.c "package/src/tree_sitter/*.h")
    foreach(f IN LISTS _ca_gneeded)
        if(NOT EXISTS "${_ca_tmp}/package/src/${f}")
            message(FATAL_ERROR "${_ca_tgz} has no package/src/${f}")
        endif()
    endforeach()
    file(RENAME "${_ca_tmp}/package/src" "${CA_GRAMMAR_SRC_DIR}")
    file(REMOVE_RECURSE "${_ca_tmp}")
    file(WRITE "${_ca_gstamp}" "${CA_GRAMMAR_SHA256}\n")
    message(STATUS "Grammar ${CA_GRAMMAR_PACKAGE}@${CA_GRAMMAR_VERSION} verified and extracted")
endif()
