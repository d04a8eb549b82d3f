# capi_consumer: install the build into WORK_DIR/prefix, then
#  1. configure + build tests/capi/consumer (find_package(odf_hash), odf_hash::c) and run it;
#  2. compile the tour with `cc $(pkg-config --cflags --libs odf_hash)` and run it.
# Both runs are checked like capi_tour (reference digests, a valid dataset).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/capi/consumer -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix}
    -DTOUR_SOURCE=${SOURCE_DIR}/examples/c/odf_hash_tour.c)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${PYTHON} ${SOURCE_DIR}/tests/capi/check_tour.py --tour ${WORK_DIR}/build/consumer
    --source-dir ${SOURCE_DIR})

find_program(PKG_CONFIG pkg-config REQUIRED)
file(GLOB_RECURSE pc_files ${prefix}/*/odf_hash.pc)
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir ${pc_file} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs odf_hash OUTPUT_VARIABLE flags
                RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs odf_hash failed")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
get_filename_component(libdir ${pc_dir} DIRECTORY)
run(${C_COMPILER} -std=c11 -Wall -Werror -o ${WORK_DIR}/tour-pkgconfig
    ${SOURCE_DIR}/examples/c/odf_hash_tour.c ${flags} -Wl,-rpath,${libdir})
run(${PYTHON} ${SOURCE_DIR}/tests/capi/check_tour.py --tour ${WORK_DIR}/tour-pkgconfig
    --source-dir ${SOURCE_DIR})
message(STATUS "consumer project and pkg-config build: ok")
