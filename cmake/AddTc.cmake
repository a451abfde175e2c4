# Helpers that keep every tc library and tool linked the same way: against
# libMLIR.so (MLIR_LINK_MLIR_DYLIB) and libLLVM.so, never the static archives.

# tc_add_library(name SOURCES...
#   [DEPENDS tablegen targets...]
#   [MLIR_LIBS upstream MLIR libraries (resolved to libMLIR.so)...]
#   [LINK_LIBS tc libraries or other link items...])
function(tc_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;MLIR_LIBS;LINK_LIBS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    EXCLUDE_FROM_LIBMLIR
    DISABLE_INSTALL
    DEPENDS ${ARG_DEPENDS})
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  if(ARG_LINK_LIBS)
    target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS})
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  set_property(GLOBAL APPEND PROPERTY TC_LIBS ${name})
  install(TARGETS ${name} EXPORT TcTargets
    ARCHIVE DESTINATION lib LIBRARY DESTINATION lib)
endfunction()

# tc_add_tool(name SOURCES... [MLIR_LIBS ...] [LINK_LIBS ...])
function(tc_add_tool name)
  cmake_parse_arguments(ARG "" "" "MLIR_LIBS;LINK_LIBS" ${ARGN})
  add_llvm_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  llvm_update_compile_flags(${name})
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PRIVATE ${ARG_MLIR_LIBS})
  endif()
  if(ARG_LINK_LIBS)
    target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS})
  endif()
  install(TARGETS ${name} EXPORT TcTargets RUNTIME DESTINATION bin)
endfunction()
