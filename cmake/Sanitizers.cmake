# -DGS_SANITIZE=ON builds everything with AddressSanitizer and UndefinedBehaviorSanitizer.
option(GS_SANITIZE "Build with address and undefined-behaviour sanitizers" OFF)
if(GS_SANITIZE)
  set(_gs_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${_gs_san})
  add_link_options(${_gs_san})
endif()
