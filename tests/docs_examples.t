#!/bin/bash
# The examples of README.md and docs/*.md print what they say they print.
#
# The convention (docs/writing-examples.md says it for writers):
#
#   ```console                 a checked example: commands and their output
#   $ mmfuzz run corpus/regress/pcp_count_apart.mmf
#   corpus/regress/pcp_count_apart.mmf: violation I-READ@... (... trace ...)
#   ```
#
# - A line that starts with "$ " is a command, run by bash in a scratch
#   directory that holds a symbolic link to every top-level entry of the tree
#   (so corpus/..., docs/... and build/... name the tree's files, and files
#   the example writes land in the scratch directory), with the build under
#   test first on PATH: "mmfuzz" is $MMFUZZ_BUILD/mmfuzz (plain, ASan, TSan).
#   A command may go on over lines that end in "\".  The commands of a block
#   run one after another in the same directory.
# - The lines after a command, up to the next command or the end of the
#   block, are what it prints, stdout and stderr together (2>&1), exactly:
#   signatures, trace hashes and numbers included.  A line that is "..."
#   alone stands for any number of lines, so an example can show the start
#   and the end of a long output.  The exit status is not compared: write
#   "; echo exit $?" after the command where it matters.
# - Anything that cannot be the same twice (campaign progress, timings,
#   measurements, a --help that a session may reword) goes in a ```text or
#   ```sh block: those are not run.
#
# One test per console block, named FILE:LINE; a block that drifted fails
# with the first line that differs.
. tests/lib/tap.sh

ROOT=$PWD
BIN=$ROOT/$BUILD
[ -x "$BIN/mmfuzz" ] || { echo "1..0 # SKIP $BIN/mmfuzz not built"; exit 0; }
files=(README.md docs/*.md)

# Each block to $TMP/blocks: N.where (FILE:LINE), N.ncmds, and for its
# command C (continuations joined) N.C.cmd and N.C.want, what it prints.
mkdir -p "$TMP/blocks"
perl -e '
	my ($dir, @files) = @ARGV; my $n = 0;
	for my $f (@files) {
		open(my $in, "<", $f) or die "$f: $!";
		my ($in_block, $line, $where, @cmds, @want, $cont) = (0, 0);
		while (my $l = <$in>) {
			$line++; chomp $l;
			if (!$in_block) {
				if ($l =~ /^```console\s*$/) { $in_block = 1; $where = "$f:$line"; @cmds = (); @want = (); $cont = 0; }
				next;
			}
			if ($l =~ /^```\s*$/) {
				$n++;
				open(my $o, ">", "$dir/$n.where"); print $o "$where\n"; close $o;
				for my $i (0 .. $#cmds) {
					open($o, ">", "$dir/$n.$i.cmd"); print $o "$cmds[$i]\n"; close $o;
					open($o, ">", "$dir/$n.$i.want"); print $o map { "$_\n" } @{$want[$i] // []}; close $o;
				}
				open($o, ">", "$dir/$n.ncmds"); print $o scalar(@cmds), "\n"; close $o;
				$in_block = 0; next;
			}
			if ($cont) { $cmds[-1] .= "\n$l"; $cont = ($l =~ /\\$/); next; }
			if ($l =~ /^\$ (.*)$/) { push @cmds, $1; $cont = ($1 =~ /\\$/); next; }
			die "$where: output before the first \$ command\n" unless @cmds;
			push @{$want[$#cmds]}, $l;
		}
		die "$where: console block not closed\n" if $in_block;
	}
	open(my $o, ">", "$dir/count"); print $o "$n\n";
' "$TMP/blocks" "${files[@]}" 2> "$TMP/parse"
parsed=$?
n=$(cat "$TMP/blocks/count" 2> /dev/null || echo 0)
plan $((n + 2))
ok $parsed "the console blocks of README.md and docs/*.md parse ($n blocks)"
[ $parsed = 0 ] || diag "$(cat "$TMP/parse")"
[ "$n" -ge 3 ]; ok $? "README.md and docs/ have checked examples"

# match WANT GOT: every line of WANT in order, "..." alone for any lines
match() {
	perl -e '
		open(my $w, "<", $ARGV[0]); my @w = <$w>; chomp @w;
		open(my $g, "<", $ARGV[1]); my @g = <$g>; chomp @g;
		sub m_ { my ($i, $j) = @_;
			return $j == @g if $i == @w;
			if ($w[$i] eq "...") { for my $k ($j .. @g) { return 1 if m_($i + 1, $k); } return 0; }
			return $j < @g && $w[$i] eq $g[$j] && m_($i + 1, $j + 1);
		}
		exit 0 if m_(0, 0);
		# where it went wrong, found greedily, for the message
		my ($j, $skip) = (0, 0);
		for my $i (0 .. $#w) {
			if ($w[$i] eq "...") { $skip = 1; next; }
			if ($skip) { $j++ while $j < @g && $g[$j] ne $w[$i]; }
			if ($j >= @g || $g[$j] ne $w[$i]) {
				print "example line ", $i + 1, ": $w[$i]\n";
				print "printed: ", ($j < @g ? $g[$j] : "(the end of the output)"), "\n";
				exit 1;
			}
			($j, $skip) = ($j + 1, 0);
		}
		print "printed more after the last line of the example: $g[$j]\n";
		exit 1;
	' "$1" "$2"
}

for ((b = 1; b <= n; b++)); do
	where=$(cat "$TMP/blocks/$b.where")
	work=$TMP/run$b
	mkdir -p "$work"
	for e in "$ROOT"/* "$ROOT"/.[!.]*; do [ -e "$e" ] && ln -s "$e" "$work/"; done
	ncmds=$(cat "$TMP/blocks/$b.ncmds")
	bad=
	for ((c = 0; c < ncmds; c++)); do
		(cd "$work" && PATH=$BIN:$PATH timeout 60 bash -c "$(cat "$TMP/blocks/$b.$c.cmd")") \
			> "$TMP/blocks/$b.$c.got" 2>&1 < /dev/null
		if ! match "$TMP/blocks/$b.$c.want" "$TMP/blocks/$b.$c.got" > "$TMP/why"; then
			bad=$c
			break
		fi
	done
	[ -z "$bad" ]
	ok $? "$where: the example prints what it shows"
	[ -z "$bad" ] || {
		diag "\$ $(cat "$TMP/blocks/$b.$bad.cmd")"
		diag "$(cat "$TMP/why")"
	}
done
finish
