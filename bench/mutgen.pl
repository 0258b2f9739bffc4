#!/usr/bin/perl
# SPDX-License-Identifier: MIT
#
# bench/mutgen.pl: single-point mutants of the model, made mechanically from
# the catalogue (bench/mutants/*.cat: one file per layer, read in name order
# as one) and the source files.
#
#   bench/mutgen.pl [-c CATALOGUE] list FILE...     (CATALOGUE: a file, or a
#       directory whose *.cat are read; default bench/mutants)
#       one line per mutant: ID, FILE:LINE, CLASS, what changes
#   bench/mutgen.pl [-c CATALOGUE] apply ID FILE...
#       rewrite, in place, the one file the mutant ID changes
#
# An ID is CLASS@FUNCTION#N (N counts that class's mutants in the function,
# in line order, with .K for the K-th variant of one line): it stays the
# same when other functions change.  Perl only (perl-base is Essential in
# Debian): nothing to install.
use strict;
use warnings;

my $cat = 'bench/mutants';
if (@ARGV >= 2 && $ARGV[0] eq '-c') {
	shift;
	$cat = shift;
}
my $mode = shift // '';
my $want;
$want = shift if $mode eq 'apply';
die "usage: $0 [-c CATALOGUE] list FILE... | apply ID FILE...\n"
	unless ($mode eq 'list' || $mode eq 'apply') && @ARGV;

# ---- the catalogue ----
my (@locks, @held, @counter, @listop, @yield, @atomic, @clamp, @racy, @exclude);
my @cats = -d $cat ? sort(glob("$cat/*.cat")) : ($cat);
die "$cat: no *.cat in it\n" unless @cats;
for my $catfile (@cats) {
$cat = $catfile;
open(my $cf, '<', $cat) or die "$cat: $!\n";
while (my $l = <$cf>) {
	chomp $l;
	next if $l =~ /^\s*(#|$)/;
	my ($key, $rest) = $l =~ /^(\w+)\s+(.*\S)\s*$/ or die "$cat:$.: expected KEY VALUE\n";
	if ($key eq 'lock') {
		my @f = split /\s{2,}/, $rest;
		die "$cat:$.: lock needs four columns\n" unless @f == 4;
		push @locks, { re => qr/$f[0]/, un => $f[1], keep => $f[2], unkeep => $f[3] };
	} elsif ($key eq 'held') {
		push @held, qr/$rest/;
	} elsif ($key eq 'counter') {
		push @counter, qr/$rest/;
	} elsif ($key eq 'listop') {
		push @listop, qr/$rest/;
	} elsif ($key eq 'yield') {
		push @yield, qr/$rest/;
	} elsif ($key eq 'atomic') {
		my @f = split /\s+/, $rest;
		die "$cat:$.: atomic NAME OP OPERAND\n" unless @f == 3;
		push @atomic, { name => $f[0], op => $f[1], x => $f[2] };
	} elsif ($key eq 'clamp') {
		push @clamp, $rest;
	} elsif ($key eq 'racy') {
		push @racy, qr/$rest/;
	} elsif ($key eq 'exclude') {
		push @exclude, qr/$rest/;
	} elsif ($key eq 'target') {
		# the campaign's fuzz target for a layer's files: bench/mutants.sh's
		die "$cat:$.: target FILE-RE TARGET\n" unless $rest =~ /^\S+\s+\w+$/;
	} else {
		die "$cat:$.: unknown key '$key'\n";
	}
}
close $cf;
}

sub any_match {
	my ($s, @res) = @_;
	for my $re (@res) {
		return 1 if $s =~ $re;
	}
	return 0;
}

# ---- reading a file: functions, blocks, statements ----

# The code of a line without comments, strings and character constants.
sub code_of {
	my ($s, $in_comment) = @_;
	my $out = '';
	while (length $s) {
		if ($$in_comment) {
			if ($s =~ s/^.*?\*\///s) {
				$$in_comment = 0;
			} else {
				return $out;
			}
		} elsif ($s =~ s/^\/\*//) {
			$$in_comment = 1;
		} elsif ($s =~ /^\/\//) {
			return $out;
		} elsif ($s =~ s/^("(?:[^"\\]|\\.)*")//) {
			$out .= '""';
		} elsif ($s =~ s/^('(?:[^'\\]|\\.)*')//) {
			$out .= "' '";
		} else {
			$s =~ s/^(.)//s;
			$out .= $1;
		}
	}
	return $out;
}

# The arguments of the call whose '(' is at $pos in $s, and the position
# after its ')'.
sub call_args {
	my ($s, $pos) = @_;
	my ($depth, $cur, @args) = (0, '');
	for (my $i = $pos; $i < length $s; $i++) {
		my $c = substr($s, $i, 1);
		if ($c eq '(') {
			$cur .= $c if $depth++;
		} elsif ($c eq ')') {
			if (--$depth == 0) {
				push @args, $cur;
				s/^\s+|\s+$//g for @args;
				return (\@args, $i + 1);
			}
			$cur .= $c;
		} elsif ($c eq ',' && $depth == 1) {
			push @args, $cur;
			$cur = '';
		} else {
			$cur .= $c;
		}
	}
	return;
}

my @mutants;

sub add_mutant {
	my ($f, $class, $line, $desc, $edits) = @_;
	my $key = "$class\@$f->{fn}[$line]";
	push @mutants, { file => $f->{path}, line => $line + 1, class => $class,
			 key => $key, desc => $desc, edits => $edits };
}

sub trim {
	my ($s) = @_;
	$s =~ s/^\s+|\s+$//g;
	$s =~ s/\s+/ /g;
	return $s;
}

sub indent_of {
	my ($s) = @_;
	return $s =~ /^(\s*)/ ? $1 : '';
}

sub scan_file {
	my ($path) = @_;
	open(my $fh, '<', $path) or die "$path: $!\n";
	my @src = <$fh>;
	close $fh;
	chomp @src;
	my $n = @src;
	my (@code, @depth, @fn, @stmt, @body, @dead);
	my ($in_comment, $d, $fname, $in_macro) = (0, 0, undef, 0);
	my %fstart;

	for my $i (0 .. $n - 1) {
		my $c = code_of($src[$i], \$in_comment);
		$code[$i] = $c;
		$depth[$i] = $d;
		# preprocessor lines and their continuations are not code
		if ($in_macro || $c =~ /^\s*#/) {
			$in_macro = $c =~ /\\\s*$/;
			$code[$i] = '';
			$fn[$i] = undef;
			next;
		}
		if ($d == 0 && $c =~ /^[A-Za-z_][\w\s\*]*?\b(\w+)\s*\(/ && $c !~ /;\s*$/) {
			$fname = $1;
		}
		$d += () = $c =~ /\{/g;
		$d -= () = $c =~ /\}/g;
		$fn[$i] = $depth[$i] > 0 || $c =~ /^\{/ ? $fname : undef;
		$fstart{$fname} //= $i if defined $fn[$i];
	}
	# a statement line: code that ends a statement and starts one
	for my $i (0 .. $n - 1) {
		my $prev = $i ? $code[$i - 1] : '';
		$prev = ';' if $prev =~ /^\s*else\s*$/;
		$stmt[$i] = defined $fn[$i] && $code[$i] =~ /;\s*$/ && $depth[$i] > 0 &&
			    ($prev =~ /[;{}:]\s*$/ || $prev =~ /^\s*$/) &&
			    $code[$i] !~ /^\s*(if|for|while|else|do|switch|case|default|return)\b/ ? 1 : 0;
		$stmt[$i] = 1 if defined $fn[$i] && $code[$i] =~ /^\s*return\b.*;\s*$/ &&
				 ($prev =~ /[;{}:]\s*$/ || $prev =~ /^\s*$/);
		# the one statement of an if/for/while without braces: it may be
		# changed in place, never moved
		if (defined $fn[$i] && $code[$i] =~ /;\s*$/ && $i &&
		    $code[$i - 1] =~ /^\s*(?:\}\s*)?(?:if|for|while|else)\b.*[)e]\s*$/) {
			$stmt[$i] = $body[$i] = 1;
		}
	}
	# dead code: the branches a bug switch turns on (and variables set from
	# bug_on()), and static functions called only from there
	my %flagvar;
	for my $i (0 .. $n - 1) {
		$flagvar{$fn[$i] . ':' . $1} = 1
			if defined $fn[$i] && $code[$i] =~ /\b(\w+)\s*=\s*bug_on\(/;
	}
	for my $i (0 .. $n - 1) {
		next unless defined $fn[$i];
		# the line that asks is never mutated; what it guards is dead
		# when the switch alone decides (bug_on(X), bug_on(X) && ...)
		$dead[$i] = 1 if $code[$i] =~ /bug_on\(/;
		my $guard = $code[$i] =~ /^\s*(?:\}\s*else\s+)?if\s*\(\s*(?:unlikely\(\s*)?bug_on\(\w+\)\s*(\)|&&)/ ||
			    ($code[$i] =~ /^\s*if\s*\(\s*(\w+)\s*\)/ && $flagvar{"$fn[$i]:$1"});
		next unless $guard;
		$dead[$i] = 1;
		# the condition's lines, then the then-part
		my $j = $i;
		$dead[$j] = 1, $j++ while $j < $n && $code[$j] !~ /\)\s*\{?\s*$/;
		$dead[$j] = 1;
		if ($code[$j] =~ /\{\s*$/) {
			my $open = $depth[$j] + 1;
			$j++;
			while ($j < $n && !($depth[$j] == $open && $code[$j] =~ /^\s*\}/)) {
				$dead[$j++] = 1;
			}
		} else {
			$dead[$j + 1] = 1 if $j + 1 < $n;
		}
	}
	my %calls;
	for my $i (0 .. $n - 1) {
		next unless defined $fn[$i];
		while ($code[$i] =~ /\b(\w+)\s*\(/g) {
			next if $1 eq $fn[$i];
			push @{$calls{$1}}, $dead[$i] ? 1 : 0;
		}
	}
	for my $i (0 .. $n - 1) {
		my $f = $fn[$i];
		next unless defined $f && $calls{$f} && !grep { !$_ } @{$calls{$f}};
		$dead[$i] = 1;
	}
	return { path => $path, src => \@src, code => \@code, depth => \@depth, fn => \@fn,
		 stmt => \@stmt, body => \@body, dead => \@dead, n => $n };
}

# Lines j > i of the same block as i, up to the end of that block.
sub same_block {
	my ($f, $i) = @_;
	my @out;
	my $dd = $f->{depth}[$i];
	for (my $j = $i + 1; $j < $f->{n}; $j++) {
		last if !defined $f->{fn}[$j] || $f->{fn}[$j] ne $f->{fn}[$i];
		last if $f->{depth}[$j] < $dd;
		last if $f->{depth}[$j] == $dd && $f->{code}[$j] =~ /^\s*\}/;
		push @out, $j if $f->{depth}[$j] == $dd;
	}
	return @out;
}

sub live_stmt {
	my ($f, $i) = @_;
	return $f->{stmt}[$i] && !$f->{dead}[$i];
}

# a statement that may move: live, and not the braceless body of an if
sub movable {
	my ($f, $i) = @_;
	return live_stmt($f, $i) && !$f->{body}[$i];
}

# Functions with a yield point in them, directly or through what they call
# (in any of the files): a call to one is a yield point too.
my %yielding;
sub note_yielding {
	my @fs = @_;
	for (my $changed = 1; $changed;) {
		$changed = 0;
		for my $f (@fs) {
			for my $i (0 .. $f->{n} - 1) {
				my $g = $f->{fn}[$i];
				next if !defined $g || $yielding{$g} || !is_yield($f->{code}[$i]);
				$yielding{$g} = $changed = 1;
			}
		}
	}
}

sub is_yield {
	my ($s) = @_;
	return 1 if any_match($s, @yield);
	while ($s =~ /\b(\w+)\s*\(/g) {
		return 1 if $yielding{$1};
	}
	return 0;
}

# Regions of each lock: [lock line, [unlock lines]] within one function.
sub lock_regions {
	my ($f) = @_;
	my @regions;
	for my $i (0 .. $f->{n} - 1) {
		next unless live_stmt($f, $i);
		for my $lk (@locks) {
			my @cap = $f->{code}[$i] =~ $lk->{re} or next;
			my $un = $lk->{un};
			$un =~ s/\$(\d)/quotemeta($cap[$1 - 1])/ge;
			my $unre = qr/$un/;
			my @ul;
			for (my $j = $i + 1; $j < $f->{n}; $j++) {
				last if !defined $f->{fn}[$j] || $f->{fn}[$j] ne $f->{fn}[$i];
				last if $f->{code}[$j] =~ $lk->{re} && $j != $i;
				push @ul, $j if $f->{code}[$j] =~ $unre && !$f->{dead}[$j];
			}
			# a lock taken in a nested block and released outside it
			# (after a trylock's fallback) is no simple pair
			@ul = () if grep { $f->{depth}[$_] < $f->{depth}[$i] } @ul;
			push @regions, { lock => $i, unlocks => \@ul, lk => $lk, cap => \@cap } if @ul;
			last;
		}
	}
	return @regions;
}

sub keep_form {
	my ($tmpl, $cap, $line) = @_;
	return undef if $tmpl eq '-';
	$tmpl =~ s/\$(\d)/$cap->[$1 - 1]/g;
	return indent_of($line) . "$tmpl;";
}

# The lines that run under a lock: inside a lock region, in a function that
# asserts a lock, or in a static function called only from such lines.
sub held_lines {
	my ($f) = @_;
	my (%under, %fn_held);
	for my $i (0 .. $f->{n} - 1) {
		$fn_held{$f->{fn}[$i]} = 1 if defined $f->{fn}[$i] && any_match($f->{code}[$i], @held);
	}
	for my $r (lock_regions($f)) {
		$under{$_} = 1 for $r->{lock} + 1 .. $r->{unlocks}[-1] - 1;
	}
	my %defined = map { defined $_ ? ($_ => 1) : () } @{$f->{fn}};
	for (my $changed = 1; $changed;) {
		my %calls;
		$changed = 0;
		for my $i (0 .. $f->{n} - 1) {
			next unless defined $f->{fn}[$i];
			$under{$i} = 1 if $fn_held{$f->{fn}[$i]};
			while ($f->{code}[$i] =~ /\b(\w+)\s*\(/g) {
				push @{$calls{$1}}, $under{$i} ? 1 : 0
					if $defined{$1} && $1 ne $f->{fn}[$i];
			}
		}
		for my $g (keys %calls) {
			next if $fn_held{$g} || grep { !$_ } @{$calls{$g}};
			$fn_held{$g} = $changed = 1;
		}
	}
	return \%under;
}

# The fields and predicates some code reads racily (data_race(pcp->count):
# "count"; data_race(free_area_empty(area, mt)): "free_area_empty").
my %racy_token;
sub note_racy_tokens {
	my ($f) = @_;
	for my $i (0 .. $f->{n} - 1) {
		for my $re (@racy) {
			while ($f->{src}[$i] =~ /$re/g) {
				my $x = $1;
				if ($x =~ /->\s*(\w+)(?:\[[^\]]*\])?\s*$/) {
					$racy_token{"->$1"} = 1;
				} elsif ($x =~ /^\s*(\w+)\s*\(/) {
					$racy_token{"$1("} = 1;
				}
			}
		}
	}
}

sub reads_racy_state {
	my ($s) = @_;
	for my $t (keys %racy_token) {
		my $re = $t =~ /^->/ ? qr/\Q$t\E\b/ : qr/\b\Q$t\E/;
		return 1 if $s =~ $re;
	}
	return 0;
}

sub gen_file {
	my ($f) = @_;
	my $src = $f->{src};
	my @regions = lock_regions($f);

	# lock-drop
	for my $r (@regions) {
		my %e;
		$e{$r->{lock}} = keep_form($r->{lk}{keep}, $r->{cap}, $src->[$r->{lock}]);
		$e{$_} = keep_form($r->{lk}{unkeep}, $r->{cap}, $src->[$_]) for @{$r->{unlocks}};
		add_mutant($f, 'lock-drop', $r->{lock}, 'drop ' . trim($src->[$r->{lock}]) . ' and its ' .
			   scalar(@{$r->{unlocks}}) . ' unlock(s)', \%e);
	}
	# counter-unlocked: a counter update in a region, moved after the unlock
	# that ends its block
	for my $r (@regions) {
		for my $i ($r->{lock} + 1 .. $r->{unlocks}[-1] - 1) {
			next unless movable($f, $i) && any_match($f->{code}[$i], @counter);
			my ($u) = grep { my $j = $_; grep { $_ == $j } @{$r->{unlocks}} } same_block($f, $i);
			next unless defined $u;
			add_mutant($f, 'counter-unlocked', $i, 'move ' . trim($src->[$i]) . ' after ' .
				   trim($src->[$u]), { $i => undef, $u => $src->[$u] . "\n" . $src->[$i] });
		}
	}
	# counter-yield: a counter update moved after the next yield point of its block
	for my $i (0 .. $f->{n} - 1) {
		next unless movable($f, $i) && any_match($f->{code}[$i], @counter);
		my ($y) = grep { is_yield($f->{code}[$_]) } same_block($f, $i);
		next unless defined $y && movable($f, $y);
		add_mutant($f, 'counter-yield', $i, 'move ' . trim($src->[$i]) . ' after ' .
			   trim($src->[$y]), { $i => undef, $y => $src->[$y] . "\n" . $src->[$i] });
	}
	# atomic-split (of a statement on one line, or of a call over several
	# whose first line starts a statement)
	for my $i (0 .. $f->{n} - 1) {
		my $prev = $i ? $f->{code}[$i - 1] : '';
		next unless live_stmt($f, $i) ||
			    (defined $f->{fn}[$i] && !$f->{dead}[$i] && !$f->{body}[$i] &&
			     $f->{depth}[$i] > 0 && $prev =~ /(?:[;{}:]|^)\s*$/);
		for my $a (@atomic) {
			my $name = $a->{name};
			next unless $f->{code}[$i] =~ /^\s*\Q$name\E\s*\(/ && $src->[$i] =~ /\b\Q$name\E\s*\(/;
			my $pos = index($src->[$i], '(', $-[0]);
			# a call over several lines: its lines joined, the rest
			# of them dropped by the mutant
			my ($stmt, $last, %more) = ($src->[$i], $i);
			my ($args, $end) = call_args($stmt, $pos);
			while (!$args && $last < $i + 3 && $last + 1 < $f->{n}) {
				$last++;
				$stmt .= ' ' . trim($src->[$last]);
				$more{$last} = undef;
				($args, $end) = call_args($stmt, $pos);
			}
			next unless $args && substr($stmt, $end) =~ /^\s*;\s*$/;
			my ($x, $v, $site) = $a->{x} eq '1' ? ('1', @$args) : @$args;
			next unless defined $v;
			my ($read, $set) = $name =~ /long/ ? ('atomic_long_read', 'atomic_long_set')
							    : ('atomic_read', 'atomic_set');
			# the explicit-name forms (NAME_site(x, v, "site")) keep
			# their site name on the load and the store
			my ($rd, $st) = ("$read($v)", "$set($v, $read($v) $a->{op} ($x))");
			if ($name =~ /_site$/) {
				next unless defined $site;
				($rd, $st) = ("${read}_site($v, $site)",
					      "${set}_site($v, ${read}_site($v, $site) $a->{op} ($x), $site)");
			}
			my $new = indent_of($src->[$i]) . "$st;";
			add_mutant($f, 'atomic-split', $i, trim($stmt) . " -> $st", { $i => $new, %more });
		}
	}
	# recheck-drop: a test under the lock of what is also read without it
	# (the lockless check's recheck) removed, with its body
	my $under = held_lines($f);
	for my $i (0 .. $f->{n} - 1) {
		next unless $under->{$i} && !$f->{dead}[$i] && defined $f->{fn}[$i];
		next unless $f->{code}[$i] =~ /^\s*if\s*\(/;
		my $prev = $i ? $f->{code}[$i - 1] : '';
		next if $prev =~ /\belse\s*$/;
		# the condition may span lines; then a braced block or one statement
		my $j = $i;
		$j++ while $j < $f->{n} && $f->{code}[$j] !~ /\)\s*(\{\s*)?$/ && $f->{code}[$j] !~ /;\s*$/;
		my $end;
		if ($f->{code}[$j] =~ /;\s*$/) {
			$end = $j;			# if (c) stmt; on one line
		} elsif ($f->{code}[$j] =~ /\{\s*$/) {
			my $dd = $f->{depth}[$j] + 1;
			$end = $j + 1;
			$end++ while $end < $f->{n} && !($f->{depth}[$end] == $dd && $f->{code}[$end] =~ /^\s*\}/);
			next if $f->{code}[$end] =~ /\belse\b/;
		} else {
			$end = $j + 1;
			next unless $end < $f->{n} && $f->{code}[$end] =~ /;\s*$/;
		}
		next if $end + 1 < $f->{n} && $f->{code}[$end + 1] =~ /^\s*else\b/;
		my $cond = join(' ', @{$f->{code}}[$i .. $j]);
		next unless reads_racy_state($cond);
		my %e = map { $_ => undef } $i .. $end;
		add_mutant($f, 'recheck-drop', $i, 'remove ' . trim($src->[$i]) .
			   ($end > $i ? ' (' . ($end - $i + 1) . ' lines)' : ''), \%e);
	}
	# clamp-drop
	for my $i (0 .. $f->{n} - 1) {
		next unless live_stmt($f, $i) || ($f->{code}[$i] =~ /^\s*return\b/ && !$f->{dead}[$i] &&
						   defined $f->{fn}[$i]);
		for my $name (@clamp) {
			my $line = $src->[$i];
			while ($line =~ /\b\Q$name\E\s*\(/g) {
				my $start = $-[0];
				my $pos = index($line, '(', $start);
				my ($args, $end) = call_args($line, $pos) or last;
				my @keep;
				if ($name eq 'clamp') {
					@keep = (0);
				} elsif ($name =~ /_t$/) {
					@keep = grep { $args->[$_] !~ /^-?\d+$/ } 1 .. $#$args;
				} else {
					@keep = grep { $args->[$_] !~ /^-?\d+$/ } 0 .. $#$args;
				}
				my $k = 0;
				for my $a (@keep) {
					my $new = substr($line, 0, $start) . "($args->[$a])" . substr($line, $end);
					add_mutant($f, 'clamp-drop', $i, trim(substr($line, $start, $end - $start)) .
						   " -> $args->[$a]", { $i => $new });
					$mutants[-1]{variant} = ++$k if @keep > 1;
				}
			}
		}
	}
	# list-count-swap: the nearest counter update of a list operation's block,
	# with no yield point between them, put on the other side of it
	for my $i (0 .. $f->{n} - 1) {
		next unless movable($f, $i) && any_match($f->{code}[$i], @listop);
		my @after = same_block($f, $i);
		for my $j (@after) {
			last if is_yield($f->{code}[$j]) || any_match($f->{code}[$j], @listop);
			next unless movable($f, $j) && any_match($f->{code}[$j], @counter);
			add_mutant($f, 'list-count-swap', $i, 'move ' . trim($src->[$j]) . ' before ' .
				   trim($src->[$i]), { $j => undef, $i => $src->[$j] . "\n" . $src->[$i] });
			last;
		}
	}
	# racy-trusted: a racy read before a lock, and the same expression read
	# again under the lock: use a racy read taken before the lock instead
	for my $r (@regions) {
		my $l = $r->{lock};
		my $fnn = $f->{fn}[$l];
		my %seen;
		for my $i (0 .. $l - 1) {
			next unless defined $f->{fn}[$i] && $f->{fn}[$i] eq $fnn && !$f->{dead}[$i];
			for my $re (@racy) {
				while ($src->[$i] =~ /$re/g) {
					my $x = $1;
					next if $seen{$x}++;
					for my $k ($l + 1 .. $r->{unlocks}[0] - 1) {
						next unless live_stmt($f, $k);
						my $plain = $src->[$k];
						next if $plain =~ /(data_race|READ_ONCE)\(\s*\Q$x\E\s*\)/;
						next unless $plain =~ /(?<![\w>.])\Q$x\E(?![\w\[])/;
						$plain =~ s/(?<![\w>.])\Q$x\E(?![\w\[])/racy_snapshot/g;
						my $ind = indent_of($src->[$l]);
						# a label before the lock labels a statement, not
						# a declaration (C17): an empty one first
						my $lab = $l > 0 && $src->[$l - 1] =~ /^\s*\w+:\s*$/ ? "${ind};\n" : '';
						add_mutant($f, 'racy-trusted', $k, "$x read with data_race() before " .
							   trim($src->[$l]) . ', used in ' . trim($src->[$k]),
							   { $l => "$lab${ind}__typeof__($x) racy_snapshot = data_race($x);\n" .
								   $src->[$l], $k => $plain });
						last;
					}
				}
			}
		}
	}
}

my %files;
@ARGV = grep { !any_match($_, @exclude) } @ARGV;
$files{$_} = scan_file($_) for @ARGV;
note_racy_tokens($files{$_}) for @ARGV;
note_yielding(map { $files{$_} } @ARGV);
gen_file($files{$_}) for @ARGV;

# one mutant per change: two rules that make the same edit (a counter moved
# past an unlock is also moved past a yield point) keep the first
my %seen_edit;
@mutants = grep {
	my $m = $_;
	my $sig = $m->{file} . join('|', map { "$_=" . ($m->{edits}{$_} // '') } sort keys %{$m->{edits}});
	!$seen_edit{$sig}++;
} @mutants;

# stable ids: CLASS@FUNCTION#N in line order
my %count;
for my $m (sort { $a->{file} cmp $b->{file} || $a->{line} <=> $b->{line} } @mutants) {
	next if $m->{variant} && $m->{variant} > 1;
	$m->{n} = ++$count{$m->{key}};
}
for my $m (sort { $a->{file} cmp $b->{file} || $a->{line} <=> $b->{line} } @mutants) {
	if ($m->{variant} && $m->{variant} > 1) {
		my ($first) = grep { $_->{key} eq $m->{key} && $_->{line} == $m->{line} && $_->{n} }
			      @mutants;
		$m->{n} = $first->{n};
	}
	$m->{id} = "$m->{key}#$m->{n}" . ($m->{variant} ? ".$m->{variant}" : '');
}

if ($mode eq 'list') {
	for my $m (sort { $a->{file} cmp $b->{file} || $a->{line} <=> $b->{line} || $a->{id} cmp $b->{id} }
		   @mutants) {
		print join("\t", $m->{id}, "$m->{file}:$m->{line}", $m->{class}, $m->{desc}), "\n";
	}
	exit 0;
}

my ($m) = grep { $_->{id} eq $want } @mutants;
die "$0: no mutant $want\n" unless $m;
my $f = $files{$m->{file}};
my @out;
for my $i (0 .. $f->{n} - 1) {
	if (exists $m->{edits}{$i}) {
		push @out, $m->{edits}{$i} if defined $m->{edits}{$i};
	} else {
		push @out, $f->{src}[$i];
	}
}
open(my $oh, '>', $m->{file}) or die "$m->{file}: $!\n";
print $oh "$_\n" for @out;
close $oh;
print "$m->{id}\t$m->{file}:$m->{line}\t$m->{class}\t$m->{desc}\n";
