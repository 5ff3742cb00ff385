# Writes a C++ source holding every specs/*.lua file as a string, so the
# standard level library travels inside the binary. Run with -DSRC and -DOUT.
# The prelude (helpers every spec may use) comes first, then the library.
file(GLOB specs RELATIVE ${SRC} ${SRC}/specs/*.lua)
list(SORT specs)
# The catalogue of anomalies last: its patterns build on the levels.
list(FIND specs specs/anomalies.lua catalogue)
if(NOT catalogue EQUAL -1)
  list(REMOVE_ITEM specs specs/anomalies.lua)
  list(APPEND specs specs/anomalies.lua)
endif()
list(PREPEND specs lua/prelude.lua)
set(body "// Generated from specs/*.lua by lua/embed_specs.cmake. Do not edit.\n")
string(APPEND body "#include \"lua/embedded_specs.hpp\"\n\nnamespace iso::lua {\n\n")
string(APPEND body "const std::vector<EmbeddedSpec>& embedded_specs() {\n")
string(APPEND body "  static const std::vector<EmbeddedSpec> specs = {\n")
foreach(spec ${specs})
  file(READ ${SRC}/${spec} text)
  string(APPEND body "    {\"${spec}\", R\"isospec(${text})isospec\"},\n")
endforeach()
string(APPEND body "  };\n  return specs;\n}\n\n}  // namespace iso::lua\n")
file(WRITE ${OUT}.tmp "${body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
