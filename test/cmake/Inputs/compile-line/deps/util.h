#error "deps/util.h: the source's own folder must come first"
