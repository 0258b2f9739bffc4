#!/bin/bash -eu
# SPDX-License-Identifier: MIT
# ClusterFuzzLite / OSS-Fuzz build: the model and the fuzz targets compiled
# with the service's $CC and $CFLAGS, linked with $LIB_FUZZING_ENGINE into
# $OUT, with the seed corpora (zips), dictionaries and options files.
#
# Locally (what ci/clusterfuzzlite-local does):
#   SRC=$PWD/.. OUT=/tmp/out CC=clang-19 FUZZING_ENGINE=libfuzzer \
#   CFLAGS="-O1 -gline-tables-only -fsanitize=address,fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer .clusterfuzzlite/build.sh
cd "$SRC/mmfuzz"
work=${WORK:-/tmp}/mmfuzz-cfl
rm -rf "$work"
mkdir -p "$work/obj" "$OUT"

# The host tool that turns the readable seeds into their binary twins:
# plain, without the service's flags (nothing to install: DEPS=none).
make -s BUILD="$work/host" DEPS=none CC="${HOST_CC:-clang}" CFLAGS="-O1" \
	"$work/host/mmfuzz" > /dev/null

# Interleaving coverage: libFuzzer's extra counters, or for any other engine
# distinct instrumented blocks (src/sched/ilv.c).
case "${FUZZING_ENGINE:-libfuzzer}" in
libfuzzer) sink=1 ;;
*) sink=3 ;;
esac
flags="-std=c11 -D_GNU_SOURCE -DMMFUZZ_ILV_SINK=$sink -Isrc $CFLAGS"
objs=""
for f in src/sched/*.c src/kernel/*.c src/bugs/*.c src/mm/*.c src/check/*.c src/prog/*.c; do
	o=$work/obj/$(echo "$f" | tr / _).o
	$CC $flags -c "$f" -o "$o"
	objs="$objs $o"
done
$CC $CFLAGS -c src/sched/fiber_x86_64.S -o "$work/obj/fiber_asm.o"
objs="$objs $work/obj/fiber_asm.o"

for target in mm pagealloc text; do
	if [ $target = text ]; then src=fuzz/fuzz_text.c; def=; else
		src=fuzz/fuzz_prog.c; def=-DFUZZ_TARGET_$(echo $target | tr a-z A-Z); fi
	# shellcheck disable=SC2086
	$CC $flags $def -c $src -o "$work/obj/fuzz_$target.o"
	# shellcheck disable=SC2086
	$CC $CFLAGS "$work/obj/fuzz_$target.o" $objs $LIB_FUZZING_ENGINE -lpthread -lm \
		-o "$OUT/fuzz_$target"
	cp fuzz/fuzz_$target.options "$OUT/"
done
cp fuzz/mm.dict "$OUT/fuzz_mm.dict"
cp fuzz/mm.dict "$OUT/fuzz_pagealloc.dict"
cp fuzz/text.dict "$OUT/fuzz_text.dict"

# Seed corpora: the binary twins of corpus/mm for the program targets, the
# readable programs themselves for the text parser.
mkdir -p "$work/seeds"
for f in corpus/mm/*.mmf; do
	"$work/host/mmfuzz" encode "$f" -o "$work/seeds/$(basename "$f" .mmf).bin"
done
rm -f "$OUT"/fuzz_*_seed_corpus.zip
(cd "$work/seeds" && zip -q "$OUT/fuzz_mm_seed_corpus.zip" ./*.bin &&
	cp "$OUT/fuzz_mm_seed_corpus.zip" "$OUT/fuzz_pagealloc_seed_corpus.zip")
zip -q -j "$OUT/fuzz_text_seed_corpus.zip" corpus/mm/*.mmf corpus/regress/*.mmf
