# SHA3-256 conformance vectors: the committed sha3_vectors.json must be exactly what
# gen_sha3_vectors.py (Python hashlib) generates. Included from tests/CMakeLists.txt; the
# C++ side (unit_core's sha3 tests) reads the same JSON.
set(_odf_sha3_python "")
if(ODF_HASH_PYTHON AND EXISTS "${ODF_HASH_PYTHON}")
  set(_odf_sha3_python "${ODF_HASH_PYTHON}")
else()
  # A system-Arrow build never sets ODF_HASH_PYTHON; any Python 3 has hashlib.sha3_256.
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    set(_odf_sha3_python "${Python3_EXECUTABLE}")
  endif()
endif()

if(_odf_sha3_python)
  add_test(NAME conformance_sha3_vectors
           COMMAND "${_odf_sha3_python}" "${CMAKE_CURRENT_LIST_DIR}/gen_sha3_vectors.py"
                   --check "${CMAKE_CURRENT_LIST_DIR}/sha3_vectors.json")
else()
  message(STATUS "odf-hash: no Python 3 found; conformance_sha3_vectors test not registered")
endif()
