# Warnings and sanitizers for every target of ours (docs/architecture.md: warnings on, sanitizer builds).
add_library(roofline_warnings INTERFACE)
target_compile_options(roofline_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wshadow -Wconversion -Wsign-conversion -Wpedantic>)
if(ROOFLINE_WERROR)
  target_compile_options(roofline_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()
if(ROOFLINE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
if(ROOFLINE_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
if(ROOFLINE_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()
# GCC 12 reports false -Wrestrict/-Wstringop-overflow positives inside libstdc++'s std::string at
# -O3 (GCC bug 105329); they are not about our code.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(roofline_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict -Wno-stringop-overflow -Wno-array-bounds>)
endif()
