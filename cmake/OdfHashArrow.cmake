# Finds Arrow C++ and Parquet C++ and defines interface targets for the rest of the
# build: odf_hash_dep_arrow, odf_hash_dep_parquet and odf_hash_dep_arrow_s3 (Arrow's S3
# file system, libarrow_s3; ODF_HASH_HAVE_S3 says whether it was found: without it s3://
# URLs are refused as unsupported).
#
# 1. A system (or CMAKE_PREFIX_PATH) install is tried first through the packages' own
#    CMake configs: find_package(Arrow) / find_package(Parquet).
# 2. Otherwise the C++ headers and shared libraries bundled in the pyarrow wheel are used.
#    The wheel ships no CMake config, so imported targets are made here. The pyarrow
#    directory comes from ODF_HASH_PYARROW_DIR, or from asking the Python interpreter
#    ODF_HASH_PYTHON (default: the project's .venv, made by scripts/bootstrap.sh).

find_package(Arrow CONFIG QUIET)
find_package(Parquet CONFIG QUIET)

add_library(odf_hash_dep_arrow INTERFACE)
add_library(odf_hash_dep_parquet INTERFACE)
add_library(odf_hash_dep_arrow_s3 INTERFACE)
set(ODF_HASH_HAVE_S3 OFF CACHE INTERNAL "")

if(Arrow_FOUND AND Parquet_FOUND)
  message(STATUS "odf-hash: Arrow ${Arrow_VERSION} from its CMake package")
  if(TARGET Arrow::arrow_shared)
    target_link_libraries(odf_hash_dep_arrow INTERFACE Arrow::arrow_shared)
  else()
    target_link_libraries(odf_hash_dep_arrow INTERFACE Arrow::arrow_static)
  endif()
  if(TARGET Parquet::parquet_shared)
    target_link_libraries(odf_hash_dep_parquet INTERFACE Parquet::parquet_shared)
  else()
    target_link_libraries(odf_hash_dep_parquet INTERFACE Parquet::parquet_static)
  endif()
  find_package(ArrowS3 CONFIG QUIET)
  if(TARGET ArrowS3::arrow_s3_shared)
    target_link_libraries(odf_hash_dep_arrow_s3 INTERFACE ArrowS3::arrow_s3_shared)
    set(ODF_HASH_HAVE_S3 ON CACHE INTERNAL "")
  elseif(TARGET ArrowS3::arrow_s3_static)
    target_link_libraries(odf_hash_dep_arrow_s3 INTERFACE ArrowS3::arrow_s3_static)
    set(ODF_HASH_HAVE_S3 ON CACHE INTERNAL "")
  endif()
  set(ODF_HASH_ARROW_LIBDIR "" CACHE INTERNAL "")
  return()
endif()

set(ODF_HASH_PYTHON "${PROJECT_SOURCE_DIR}/.venv/bin/python" CACHE FILEPATH
    "Python interpreter whose pyarrow provides Arrow C++ when no system Arrow is found")
if(NOT ODF_HASH_PYARROW_DIR)
  execute_process(
    COMMAND "${ODF_HASH_PYTHON}" -c "import pyarrow, os; print(os.path.dirname(pyarrow.__file__))"
    OUTPUT_VARIABLE _pyarrow_dir OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _pyarrow_rc ERROR_QUIET)
  if(NOT _pyarrow_rc EQUAL 0)
    message(FATAL_ERROR
      "odf-hash: Arrow C++ not found. Install it system-wide, or run scripts/bootstrap.sh "
      "(make build does) to get pyarrow into .venv, or set ODF_HASH_PYARROW_DIR.")
  endif()
  set(ODF_HASH_PYARROW_DIR "${_pyarrow_dir}" CACHE PATH "pyarrow package directory")
endif()

file(GLOB _arrow_lib "${ODF_HASH_PYARROW_DIR}/libarrow.so.[0-9]*")
file(GLOB _parquet_lib "${ODF_HASH_PYARROW_DIR}/libparquet.so.[0-9]*")
list(FILTER _arrow_lib EXCLUDE REGEX "\\.so\\.[0-9]+\\.")
list(FILTER _parquet_lib EXCLUDE REGEX "\\.so\\.[0-9]+\\.")
if(NOT _arrow_lib OR NOT _parquet_lib)
  message(FATAL_ERROR "odf-hash: no libarrow/libparquet in ${ODF_HASH_PYARROW_DIR}")
endif()
list(GET _arrow_lib 0 _arrow_lib)
list(GET _parquet_lib 0 _parquet_lib)

add_library(odf_hash_pyarrow_arrow SHARED IMPORTED GLOBAL)
set_target_properties(odf_hash_pyarrow_arrow PROPERTIES
  IMPORTED_LOCATION "${_arrow_lib}"
  INTERFACE_INCLUDE_DIRECTORIES "${ODF_HASH_PYARROW_DIR}/include")
add_library(odf_hash_pyarrow_parquet SHARED IMPORTED GLOBAL)
set_target_properties(odf_hash_pyarrow_parquet PROPERTIES
  IMPORTED_LOCATION "${_parquet_lib}"
  INTERFACE_INCLUDE_DIRECTORIES "${ODF_HASH_PYARROW_DIR}/include"
  INTERFACE_LINK_LIBRARIES odf_hash_pyarrow_arrow)
target_link_libraries(odf_hash_dep_arrow INTERFACE odf_hash_pyarrow_arrow)
# Arrow >= 23 ships its S3 file system as a library of its own in the wheel.
file(GLOB _arrow_s3_lib "${ODF_HASH_PYARROW_DIR}/libarrow_s3.so.[0-9]*")
list(FILTER _arrow_s3_lib EXCLUDE REGEX "\\.so\\.[0-9]+\\.")
if(_arrow_s3_lib)
  list(GET _arrow_s3_lib 0 _arrow_s3_lib)
  add_library(odf_hash_pyarrow_arrow_s3 SHARED IMPORTED GLOBAL)
  set_target_properties(odf_hash_pyarrow_arrow_s3 PROPERTIES
    IMPORTED_LOCATION "${_arrow_s3_lib}"
    INTERFACE_INCLUDE_DIRECTORIES "${ODF_HASH_PYARROW_DIR}/include"
    INTERFACE_LINK_LIBRARIES odf_hash_pyarrow_arrow)
  target_link_libraries(odf_hash_dep_arrow_s3 INTERFACE odf_hash_pyarrow_arrow_s3)
  set(ODF_HASH_HAVE_S3 ON CACHE INTERNAL "")
elseif(EXISTS "${ODF_HASH_PYARROW_DIR}/include/arrow/filesystem/s3fs.h")
  # Older wheels: S3 inside libarrow itself.
  target_link_libraries(odf_hash_dep_arrow_s3 INTERFACE odf_hash_pyarrow_arrow)
  set(ODF_HASH_HAVE_S3 ON CACHE INTERNAL "")
endif()
target_link_libraries(odf_hash_dep_parquet INTERFACE odf_hash_pyarrow_parquet)
set(ODF_HASH_ARROW_LIBDIR "${ODF_HASH_PYARROW_DIR}" CACHE INTERNAL "")
message(STATUS "odf-hash: Arrow C++ from pyarrow in ${ODF_HASH_PYARROW_DIR}")
