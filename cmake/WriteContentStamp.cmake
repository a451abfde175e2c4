# Writes a header whose text is the SHA-256 of a file (-DINPUT=, -DOUTPUT=).
# A source that #embeds a file includes its stamp as well: ccache tracks
# included headers but not #embed'ed files, and would otherwise reuse an
# object built with the file's old contents.
file(SHA256 "${INPUT}" digest)
set(text "// Generated: the SHA-256 of ${INPUT}\n// ${digest}\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL text)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${text}")
