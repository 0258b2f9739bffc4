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
for f in src/sched/*.c src/world/*.c src/kernel/*.c src/bugs/*.c src/mm/*.c src/check/*.c src/prog/*.c; do
	o=$work/obj/$(echo "$f" | tr / _).o
	# the model's racy accesses are yield points (as the Makefile's
	# MODEL_SRCS)
	case $f in src/mm/*|src/kernel/ktorture.c) model=-DMMFUZZ_MODEL ;; *) model= ;; esac
	# shellcheck disable=SC2086
	$CC $flags $model -c "$f" -o "$o"
	objs="$objs $o"
done
$CC $CFLAGS -c src/sched/fiber_x86_64.S -o "$work/obj/fiber_asm.o"
objs="$objs $work/obj/fiber_asm.o"

# the program targets are the Makefile's FUZZ_TARGETS
targets=$(sed -n 's/^FUZZ_TARGETS := //p' Makefile)
for target in $targets text; do
	if [ $target = text ]; then src=fuzz/fuzz_text.c; def=; else
		src=fuzz/fuzz_prog.c; def="-DMMFUZZ_TARGET_NAME=\"$target\""; fi
	# shellcheck disable=SC2086
	$CC $flags $def -c $src -o "$work/obj/fuzz_$target.o"
	# shellcheck disable=SC2086
	$CC $CFLAGS "$work/obj/fuzz_$target.o" $objs $LIB_FUZZING_ENGINE -lpthread -lm \
		-o "$OUT/fuzz_$target"
	if [ -f fuzz/fuzz_$target.options ]; then cp fuzz/fuzz_$target.options "$OUT/"
	else cp fuzz/fuzz_mm.options "$OUT/fuzz_$target.options"; fi
	[ $target = text ] || cp fuzz/mm.dict "$OUT/fuzz_$target.dict"
done
cp fuzz/text.dict "$OUT/fuzz_text.dict"

# Seed corpora: the binary twins of corpus/<target>/ (every seed for all
# and mm, which have no directory of their own), the readable programs
# themselves for the text parser.
rm -f "$OUT"/fuzz_*_seed_corpus.zip
for target in $targets; do
	mkdir -p "$work/seeds/$target"
	if [ $target = mm ] || [ $target = all ]; then
		seeds=$(find corpus -name '*.mmf' -not -path 'corpus/regress/*')
	else seeds=$(ls corpus/$target/*.mmf 2>/dev/null); fi
	for f in $seeds; do
		"$work/host/mmfuzz" encode "$f" -o "$work/seeds/$target/$(echo "$f" | tr / -).bin"
	done
	(cd "$work/seeds/$target" && zip -q "$OUT/fuzz_${target}_seed_corpus.zip" ./*.bin)
done
# shellcheck disable=SC2046
zip -q -j "$OUT/fuzz_text_seed_corpus.zip" $(find corpus -name '*.mmf')
