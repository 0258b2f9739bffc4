// SPDX-License-Identifier: MIT
/*
 * The interleaving edges, delivered to whichever engine the build is for
 * (MMFUZZ_ILV_SINK, set by the Makefile's fuzz builds):
 *
 *  libfuzzer  a byte per edge in libFuzzer's extra-counter section
 *             (__libfuzzer_extra_counters: cleared before every run, counted
 *             into cov and ft; fuzz-ecosystem.md 2.2), set to 1 when the
 *             edge is hit: libFuzzer makes up to eight features of a
 *             counter (its hit-count buckets), and each new feature costs
 *             it a pass over the whole corpus (entropic's rare-feature
 *             bookkeeping), which a counted edge paid again at 2, 3, 4-7
 *             hits ... (ilv_counts, MMFUZZ_ILV=counts: the hit counts)
 *  afl        a hit in AFL++'s shared-memory edge map (__afl_area_ptr), which
 *             libAFLDriver clears before every run
 *  blocks     512 distinct instrumented blocks, one per edge (any engine that
 *             counts basic blocks, e.g. honggfuzz; verified with both
 *             engines: reference/snippets/ilv.c); the Makefile never sets
 *             it, .clusterfuzzlite/build.sh does for every engine but
 *             libFuzzer (its AFL++ build), so it stays
 *  none       plain builds: only the count of edges seen, for the stats
 *
 * ilv_edge runs on fibers; it is not TSan-instrumented, since fibers of one
 * thread touching the same counter are not a race in the model.
 */
#include "ilv.h"
#include "san.h"

#include <stdint.h>

#define ILV_SINK_NONE 0
#define ILV_SINK_LIBFUZZER 1
#define ILV_SINK_AFL 2
#define ILV_SINK_BLOCKS 3
#ifndef MMFUZZ_ILV_SINK
#define MMFUZZ_ILV_SINK ILV_SINK_NONE
#endif

bool ilv_enabled;
bool ilv_pairs = true;
bool ilv_counts;
static uint8_t ilv_hit[ILV_EDGES];
static unsigned ilv_nseen;
static uint64_t ilv_hash;

void ilv_run_begin(void)
{
	ilv_hash = 0xcbf29ce484222325ULL;
}

uint64_t ilv_run_hash(void)
{
	return ilv_hash;
}

unsigned ilv_seen(void)
{
	return ilv_nseen;
}

#if MMFUZZ_ILV_SINK == ILV_SINK_LIBFUZZER
__attribute__((section("__libfuzzer_extra_counters"), used)) static uint8_t ilv_counters[ILV_EDGES];

static inline __sched_notsan void ilv_sink(unsigned h)
{
	if (!ilv_counts)
		ilv_counters[h] = 1;
	else if (ilv_counters[h] != 255)
		ilv_counters[h]++;
}
#elif MMFUZZ_ILV_SINK == ILV_SINK_AFL
extern uint8_t *__afl_area_ptr;
extern uint32_t __afl_map_size;

static inline __sched_notsan void ilv_sink(unsigned h)
{
	/* past the compiler's edges when the map has room, mixed in when not */
	uint32_t size = __afl_map_size ? __afl_map_size : 65536;

	__afl_area_ptr[(h * 0x9E3779B1u) % size]++;
}
#elif MMFUZZ_ILV_SINK == ILV_SINK_BLOCKS
static __sched_notsan __attribute__((noinline)) void ilv_sink(unsigned h)
{
	switch (h % 512) {
	case 0: __asm__ volatile("# ilv 0"); break;
	case 1: __asm__ volatile("# ilv 1"); break;
	case 2: __asm__ volatile("# ilv 2"); break;
	case 3: __asm__ volatile("# ilv 3"); break;
	case 4: __asm__ volatile("# ilv 4"); break;
	case 5: __asm__ volatile("# ilv 5"); break;
	case 6: __asm__ volatile("# ilv 6"); break;
	case 7: __asm__ volatile("# ilv 7"); break;
	case 8: __asm__ volatile("# ilv 8"); break;
	case 9: __asm__ volatile("# ilv 9"); break;
	case 10: __asm__ volatile("# ilv 10"); break;
	case 11: __asm__ volatile("# ilv 11"); break;
	case 12: __asm__ volatile("# ilv 12"); break;
	case 13: __asm__ volatile("# ilv 13"); break;
	case 14: __asm__ volatile("# ilv 14"); break;
	case 15: __asm__ volatile("# ilv 15"); break;
	case 16: __asm__ volatile("# ilv 16"); break;
	case 17: __asm__ volatile("# ilv 17"); break;
	case 18: __asm__ volatile("# ilv 18"); break;
	case 19: __asm__ volatile("# ilv 19"); break;
	case 20: __asm__ volatile("# ilv 20"); break;
	case 21: __asm__ volatile("# ilv 21"); break;
	case 22: __asm__ volatile("# ilv 22"); break;
	case 23: __asm__ volatile("# ilv 23"); break;
	case 24: __asm__ volatile("# ilv 24"); break;
	case 25: __asm__ volatile("# ilv 25"); break;
	case 26: __asm__ volatile("# ilv 26"); break;
	case 27: __asm__ volatile("# ilv 27"); break;
	case 28: __asm__ volatile("# ilv 28"); break;
	case 29: __asm__ volatile("# ilv 29"); break;
	case 30: __asm__ volatile("# ilv 30"); break;
	case 31: __asm__ volatile("# ilv 31"); break;
	case 32: __asm__ volatile("# ilv 32"); break;
	case 33: __asm__ volatile("# ilv 33"); break;
	case 34: __asm__ volatile("# ilv 34"); break;
	case 35: __asm__ volatile("# ilv 35"); break;
	case 36: __asm__ volatile("# ilv 36"); break;
	case 37: __asm__ volatile("# ilv 37"); break;
	case 38: __asm__ volatile("# ilv 38"); break;
	case 39: __asm__ volatile("# ilv 39"); break;
	case 40: __asm__ volatile("# ilv 40"); break;
	case 41: __asm__ volatile("# ilv 41"); break;
	case 42: __asm__ volatile("# ilv 42"); break;
	case 43: __asm__ volatile("# ilv 43"); break;
	case 44: __asm__ volatile("# ilv 44"); break;
	case 45: __asm__ volatile("# ilv 45"); break;
	case 46: __asm__ volatile("# ilv 46"); break;
	case 47: __asm__ volatile("# ilv 47"); break;
	case 48: __asm__ volatile("# ilv 48"); break;
	case 49: __asm__ volatile("# ilv 49"); break;
	case 50: __asm__ volatile("# ilv 50"); break;
	case 51: __asm__ volatile("# ilv 51"); break;
	case 52: __asm__ volatile("# ilv 52"); break;
	case 53: __asm__ volatile("# ilv 53"); break;
	case 54: __asm__ volatile("# ilv 54"); break;
	case 55: __asm__ volatile("# ilv 55"); break;
	case 56: __asm__ volatile("# ilv 56"); break;
	case 57: __asm__ volatile("# ilv 57"); break;
	case 58: __asm__ volatile("# ilv 58"); break;
	case 59: __asm__ volatile("# ilv 59"); break;
	case 60: __asm__ volatile("# ilv 60"); break;
	case 61: __asm__ volatile("# ilv 61"); break;
	case 62: __asm__ volatile("# ilv 62"); break;
	case 63: __asm__ volatile("# ilv 63"); break;
	case 64: __asm__ volatile("# ilv 64"); break;
	case 65: __asm__ volatile("# ilv 65"); break;
	case 66: __asm__ volatile("# ilv 66"); break;
	case 67: __asm__ volatile("# ilv 67"); break;
	case 68: __asm__ volatile("# ilv 68"); break;
	case 69: __asm__ volatile("# ilv 69"); break;
	case 70: __asm__ volatile("# ilv 70"); break;
	case 71: __asm__ volatile("# ilv 71"); break;
	case 72: __asm__ volatile("# ilv 72"); break;
	case 73: __asm__ volatile("# ilv 73"); break;
	case 74: __asm__ volatile("# ilv 74"); break;
	case 75: __asm__ volatile("# ilv 75"); break;
	case 76: __asm__ volatile("# ilv 76"); break;
	case 77: __asm__ volatile("# ilv 77"); break;
	case 78: __asm__ volatile("# ilv 78"); break;
	case 79: __asm__ volatile("# ilv 79"); break;
	case 80: __asm__ volatile("# ilv 80"); break;
	case 81: __asm__ volatile("# ilv 81"); break;
	case 82: __asm__ volatile("# ilv 82"); break;
	case 83: __asm__ volatile("# ilv 83"); break;
	case 84: __asm__ volatile("# ilv 84"); break;
	case 85: __asm__ volatile("# ilv 85"); break;
	case 86: __asm__ volatile("# ilv 86"); break;
	case 87: __asm__ volatile("# ilv 87"); break;
	case 88: __asm__ volatile("# ilv 88"); break;
	case 89: __asm__ volatile("# ilv 89"); break;
	case 90: __asm__ volatile("# ilv 90"); break;
	case 91: __asm__ volatile("# ilv 91"); break;
	case 92: __asm__ volatile("# ilv 92"); break;
	case 93: __asm__ volatile("# ilv 93"); break;
	case 94: __asm__ volatile("# ilv 94"); break;
	case 95: __asm__ volatile("# ilv 95"); break;
	case 96: __asm__ volatile("# ilv 96"); break;
	case 97: __asm__ volatile("# ilv 97"); break;
	case 98: __asm__ volatile("# ilv 98"); break;
	case 99: __asm__ volatile("# ilv 99"); break;
	case 100: __asm__ volatile("# ilv 100"); break;
	case 101: __asm__ volatile("# ilv 101"); break;
	case 102: __asm__ volatile("# ilv 102"); break;
	case 103: __asm__ volatile("# ilv 103"); break;
	case 104: __asm__ volatile("# ilv 104"); break;
	case 105: __asm__ volatile("# ilv 105"); break;
	case 106: __asm__ volatile("# ilv 106"); break;
	case 107: __asm__ volatile("# ilv 107"); break;
	case 108: __asm__ volatile("# ilv 108"); break;
	case 109: __asm__ volatile("# ilv 109"); break;
	case 110: __asm__ volatile("# ilv 110"); break;
	case 111: __asm__ volatile("# ilv 111"); break;
	case 112: __asm__ volatile("# ilv 112"); break;
	case 113: __asm__ volatile("# ilv 113"); break;
	case 114: __asm__ volatile("# ilv 114"); break;
	case 115: __asm__ volatile("# ilv 115"); break;
	case 116: __asm__ volatile("# ilv 116"); break;
	case 117: __asm__ volatile("# ilv 117"); break;
	case 118: __asm__ volatile("# ilv 118"); break;
	case 119: __asm__ volatile("# ilv 119"); break;
	case 120: __asm__ volatile("# ilv 120"); break;
	case 121: __asm__ volatile("# ilv 121"); break;
	case 122: __asm__ volatile("# ilv 122"); break;
	case 123: __asm__ volatile("# ilv 123"); break;
	case 124: __asm__ volatile("# ilv 124"); break;
	case 125: __asm__ volatile("# ilv 125"); break;
	case 126: __asm__ volatile("# ilv 126"); break;
	case 127: __asm__ volatile("# ilv 127"); break;
	case 128: __asm__ volatile("# ilv 128"); break;
	case 129: __asm__ volatile("# ilv 129"); break;
	case 130: __asm__ volatile("# ilv 130"); break;
	case 131: __asm__ volatile("# ilv 131"); break;
	case 132: __asm__ volatile("# ilv 132"); break;
	case 133: __asm__ volatile("# ilv 133"); break;
	case 134: __asm__ volatile("# ilv 134"); break;
	case 135: __asm__ volatile("# ilv 135"); break;
	case 136: __asm__ volatile("# ilv 136"); break;
	case 137: __asm__ volatile("# ilv 137"); break;
	case 138: __asm__ volatile("# ilv 138"); break;
	case 139: __asm__ volatile("# ilv 139"); break;
	case 140: __asm__ volatile("# ilv 140"); break;
	case 141: __asm__ volatile("# ilv 141"); break;
	case 142: __asm__ volatile("# ilv 142"); break;
	case 143: __asm__ volatile("# ilv 143"); break;
	case 144: __asm__ volatile("# ilv 144"); break;
	case 145: __asm__ volatile("# ilv 145"); break;
	case 146: __asm__ volatile("# ilv 146"); break;
	case 147: __asm__ volatile("# ilv 147"); break;
	case 148: __asm__ volatile("# ilv 148"); break;
	case 149: __asm__ volatile("# ilv 149"); break;
	case 150: __asm__ volatile("# ilv 150"); break;
	case 151: __asm__ volatile("# ilv 151"); break;
	case 152: __asm__ volatile("# ilv 152"); break;
	case 153: __asm__ volatile("# ilv 153"); break;
	case 154: __asm__ volatile("# ilv 154"); break;
	case 155: __asm__ volatile("# ilv 155"); break;
	case 156: __asm__ volatile("# ilv 156"); break;
	case 157: __asm__ volatile("# ilv 157"); break;
	case 158: __asm__ volatile("# ilv 158"); break;
	case 159: __asm__ volatile("# ilv 159"); break;
	case 160: __asm__ volatile("# ilv 160"); break;
	case 161: __asm__ volatile("# ilv 161"); break;
	case 162: __asm__ volatile("# ilv 162"); break;
	case 163: __asm__ volatile("# ilv 163"); break;
	case 164: __asm__ volatile("# ilv 164"); break;
	case 165: __asm__ volatile("# ilv 165"); break;
	case 166: __asm__ volatile("# ilv 166"); break;
	case 167: __asm__ volatile("# ilv 167"); break;
	case 168: __asm__ volatile("# ilv 168"); break;
	case 169: __asm__ volatile("# ilv 169"); break;
	case 170: __asm__ volatile("# ilv 170"); break;
	case 171: __asm__ volatile("# ilv 171"); break;
	case 172: __asm__ volatile("# ilv 172"); break;
	case 173: __asm__ volatile("# ilv 173"); break;
	case 174: __asm__ volatile("# ilv 174"); break;
	case 175: __asm__ volatile("# ilv 175"); break;
	case 176: __asm__ volatile("# ilv 176"); break;
	case 177: __asm__ volatile("# ilv 177"); break;
	case 178: __asm__ volatile("# ilv 178"); break;
	case 179: __asm__ volatile("# ilv 179"); break;
	case 180: __asm__ volatile("# ilv 180"); break;
	case 181: __asm__ volatile("# ilv 181"); break;
	case 182: __asm__ volatile("# ilv 182"); break;
	case 183: __asm__ volatile("# ilv 183"); break;
	case 184: __asm__ volatile("# ilv 184"); break;
	case 185: __asm__ volatile("# ilv 185"); break;
	case 186: __asm__ volatile("# ilv 186"); break;
	case 187: __asm__ volatile("# ilv 187"); break;
	case 188: __asm__ volatile("# ilv 188"); break;
	case 189: __asm__ volatile("# ilv 189"); break;
	case 190: __asm__ volatile("# ilv 190"); break;
	case 191: __asm__ volatile("# ilv 191"); break;
	case 192: __asm__ volatile("# ilv 192"); break;
	case 193: __asm__ volatile("# ilv 193"); break;
	case 194: __asm__ volatile("# ilv 194"); break;
	case 195: __asm__ volatile("# ilv 195"); break;
	case 196: __asm__ volatile("# ilv 196"); break;
	case 197: __asm__ volatile("# ilv 197"); break;
	case 198: __asm__ volatile("# ilv 198"); break;
	case 199: __asm__ volatile("# ilv 199"); break;
	case 200: __asm__ volatile("# ilv 200"); break;
	case 201: __asm__ volatile("# ilv 201"); break;
	case 202: __asm__ volatile("# ilv 202"); break;
	case 203: __asm__ volatile("# ilv 203"); break;
	case 204: __asm__ volatile("# ilv 204"); break;
	case 205: __asm__ volatile("# ilv 205"); break;
	case 206: __asm__ volatile("# ilv 206"); break;
	case 207: __asm__ volatile("# ilv 207"); break;
	case 208: __asm__ volatile("# ilv 208"); break;
	case 209: __asm__ volatile("# ilv 209"); break;
	case 210: __asm__ volatile("# ilv 210"); break;
	case 211: __asm__ volatile("# ilv 211"); break;
	case 212: __asm__ volatile("# ilv 212"); break;
	case 213: __asm__ volatile("# ilv 213"); break;
	case 214: __asm__ volatile("# ilv 214"); break;
	case 215: __asm__ volatile("# ilv 215"); break;
	case 216: __asm__ volatile("# ilv 216"); break;
	case 217: __asm__ volatile("# ilv 217"); break;
	case 218: __asm__ volatile("# ilv 218"); break;
	case 219: __asm__ volatile("# ilv 219"); break;
	case 220: __asm__ volatile("# ilv 220"); break;
	case 221: __asm__ volatile("# ilv 221"); break;
	case 222: __asm__ volatile("# ilv 222"); break;
	case 223: __asm__ volatile("# ilv 223"); break;
	case 224: __asm__ volatile("# ilv 224"); break;
	case 225: __asm__ volatile("# ilv 225"); break;
	case 226: __asm__ volatile("# ilv 226"); break;
	case 227: __asm__ volatile("# ilv 227"); break;
	case 228: __asm__ volatile("# ilv 228"); break;
	case 229: __asm__ volatile("# ilv 229"); break;
	case 230: __asm__ volatile("# ilv 230"); break;
	case 231: __asm__ volatile("# ilv 231"); break;
	case 232: __asm__ volatile("# ilv 232"); break;
	case 233: __asm__ volatile("# ilv 233"); break;
	case 234: __asm__ volatile("# ilv 234"); break;
	case 235: __asm__ volatile("# ilv 235"); break;
	case 236: __asm__ volatile("# ilv 236"); break;
	case 237: __asm__ volatile("# ilv 237"); break;
	case 238: __asm__ volatile("# ilv 238"); break;
	case 239: __asm__ volatile("# ilv 239"); break;
	case 240: __asm__ volatile("# ilv 240"); break;
	case 241: __asm__ volatile("# ilv 241"); break;
	case 242: __asm__ volatile("# ilv 242"); break;
	case 243: __asm__ volatile("# ilv 243"); break;
	case 244: __asm__ volatile("# ilv 244"); break;
	case 245: __asm__ volatile("# ilv 245"); break;
	case 246: __asm__ volatile("# ilv 246"); break;
	case 247: __asm__ volatile("# ilv 247"); break;
	case 248: __asm__ volatile("# ilv 248"); break;
	case 249: __asm__ volatile("# ilv 249"); break;
	case 250: __asm__ volatile("# ilv 250"); break;
	case 251: __asm__ volatile("# ilv 251"); break;
	case 252: __asm__ volatile("# ilv 252"); break;
	case 253: __asm__ volatile("# ilv 253"); break;
	case 254: __asm__ volatile("# ilv 254"); break;
	case 255: __asm__ volatile("# ilv 255"); break;
	case 256: __asm__ volatile("# ilv 256"); break;
	case 257: __asm__ volatile("# ilv 257"); break;
	case 258: __asm__ volatile("# ilv 258"); break;
	case 259: __asm__ volatile("# ilv 259"); break;
	case 260: __asm__ volatile("# ilv 260"); break;
	case 261: __asm__ volatile("# ilv 261"); break;
	case 262: __asm__ volatile("# ilv 262"); break;
	case 263: __asm__ volatile("# ilv 263"); break;
	case 264: __asm__ volatile("# ilv 264"); break;
	case 265: __asm__ volatile("# ilv 265"); break;
	case 266: __asm__ volatile("# ilv 266"); break;
	case 267: __asm__ volatile("# ilv 267"); break;
	case 268: __asm__ volatile("# ilv 268"); break;
	case 269: __asm__ volatile("# ilv 269"); break;
	case 270: __asm__ volatile("# ilv 270"); break;
	case 271: __asm__ volatile("# ilv 271"); break;
	case 272: __asm__ volatile("# ilv 272"); break;
	case 273: __asm__ volatile("# ilv 273"); break;
	case 274: __asm__ volatile("# ilv 274"); break;
	case 275: __asm__ volatile("# ilv 275"); break;
	case 276: __asm__ volatile("# ilv 276"); break;
	case 277: __asm__ volatile("# ilv 277"); break;
	case 278: __asm__ volatile("# ilv 278"); break;
	case 279: __asm__ volatile("# ilv 279"); break;
	case 280: __asm__ volatile("# ilv 280"); break;
	case 281: __asm__ volatile("# ilv 281"); break;
	case 282: __asm__ volatile("# ilv 282"); break;
	case 283: __asm__ volatile("# ilv 283"); break;
	case 284: __asm__ volatile("# ilv 284"); break;
	case 285: __asm__ volatile("# ilv 285"); break;
	case 286: __asm__ volatile("# ilv 286"); break;
	case 287: __asm__ volatile("# ilv 287"); break;
	case 288: __asm__ volatile("# ilv 288"); break;
	case 289: __asm__ volatile("# ilv 289"); break;
	case 290: __asm__ volatile("# ilv 290"); break;
	case 291: __asm__ volatile("# ilv 291"); break;
	case 292: __asm__ volatile("# ilv 292"); break;
	case 293: __asm__ volatile("# ilv 293"); break;
	case 294: __asm__ volatile("# ilv 294"); break;
	case 295: __asm__ volatile("# ilv 295"); break;
	case 296: __asm__ volatile("# ilv 296"); break;
	case 297: __asm__ volatile("# ilv 297"); break;
	case 298: __asm__ volatile("# ilv 298"); break;
	case 299: __asm__ volatile("# ilv 299"); break;
	case 300: __asm__ volatile("# ilv 300"); break;
	case 301: __asm__ volatile("# ilv 301"); break;
	case 302: __asm__ volatile("# ilv 302"); break;
	case 303: __asm__ volatile("# ilv 303"); break;
	case 304: __asm__ volatile("# ilv 304"); break;
	case 305: __asm__ volatile("# ilv 305"); break;
	case 306: __asm__ volatile("# ilv 306"); break;
	case 307: __asm__ volatile("# ilv 307"); break;
	case 308: __asm__ volatile("# ilv 308"); break;
	case 309: __asm__ volatile("# ilv 309"); break;
	case 310: __asm__ volatile("# ilv 310"); break;
	case 311: __asm__ volatile("# ilv 311"); break;
	case 312: __asm__ volatile("# ilv 312"); break;
	case 313: __asm__ volatile("# ilv 313"); break;
	case 314: __asm__ volatile("# ilv 314"); break;
	case 315: __asm__ volatile("# ilv 315"); break;
	case 316: __asm__ volatile("# ilv 316"); break;
	case 317: __asm__ volatile("# ilv 317"); break;
	case 318: __asm__ volatile("# ilv 318"); break;
	case 319: __asm__ volatile("# ilv 319"); break;
	case 320: __asm__ volatile("# ilv 320"); break;
	case 321: __asm__ volatile("# ilv 321"); break;
	case 322: __asm__ volatile("# ilv 322"); break;
	case 323: __asm__ volatile("# ilv 323"); break;
	case 324: __asm__ volatile("# ilv 324"); break;
	case 325: __asm__ volatile("# ilv 325"); break;
	case 326: __asm__ volatile("# ilv 326"); break;
	case 327: __asm__ volatile("# ilv 327"); break;
	case 328: __asm__ volatile("# ilv 328"); break;
	case 329: __asm__ volatile("# ilv 329"); break;
	case 330: __asm__ volatile("# ilv 330"); break;
	case 331: __asm__ volatile("# ilv 331"); break;
	case 332: __asm__ volatile("# ilv 332"); break;
	case 333: __asm__ volatile("# ilv 333"); break;
	case 334: __asm__ volatile("# ilv 334"); break;
	case 335: __asm__ volatile("# ilv 335"); break;
	case 336: __asm__ volatile("# ilv 336"); break;
	case 337: __asm__ volatile("# ilv 337"); break;
	case 338: __asm__ volatile("# ilv 338"); break;
	case 339: __asm__ volatile("# ilv 339"); break;
	case 340: __asm__ volatile("# ilv 340"); break;
	case 341: __asm__ volatile("# ilv 341"); break;
	case 342: __asm__ volatile("# ilv 342"); break;
	case 343: __asm__ volatile("# ilv 343"); break;
	case 344: __asm__ volatile("# ilv 344"); break;
	case 345: __asm__ volatile("# ilv 345"); break;
	case 346: __asm__ volatile("# ilv 346"); break;
	case 347: __asm__ volatile("# ilv 347"); break;
	case 348: __asm__ volatile("# ilv 348"); break;
	case 349: __asm__ volatile("# ilv 349"); break;
	case 350: __asm__ volatile("# ilv 350"); break;
	case 351: __asm__ volatile("# ilv 351"); break;
	case 352: __asm__ volatile("# ilv 352"); break;
	case 353: __asm__ volatile("# ilv 353"); break;
	case 354: __asm__ volatile("# ilv 354"); break;
	case 355: __asm__ volatile("# ilv 355"); break;
	case 356: __asm__ volatile("# ilv 356"); break;
	case 357: __asm__ volatile("# ilv 357"); break;
	case 358: __asm__ volatile("# ilv 358"); break;
	case 359: __asm__ volatile("# ilv 359"); break;
	case 360: __asm__ volatile("# ilv 360"); break;
	case 361: __asm__ volatile("# ilv 361"); break;
	case 362: __asm__ volatile("# ilv 362"); break;
	case 363: __asm__ volatile("# ilv 363"); break;
	case 364: __asm__ volatile("# ilv 364"); break;
	case 365: __asm__ volatile("# ilv 365"); break;
	case 366: __asm__ volatile("# ilv 366"); break;
	case 367: __asm__ volatile("# ilv 367"); break;
	case 368: __asm__ volatile("# ilv 368"); break;
	case 369: __asm__ volatile("# ilv 369"); break;
	case 370: __asm__ volatile("# ilv 370"); break;
	case 371: __asm__ volatile("# ilv 371"); break;
	case 372: __asm__ volatile("# ilv 372"); break;
	case 373: __asm__ volatile("# ilv 373"); break;
	case 374: __asm__ volatile("# ilv 374"); break;
	case 375: __asm__ volatile("# ilv 375"); break;
	case 376: __asm__ volatile("# ilv 376"); break;
	case 377: __asm__ volatile("# ilv 377"); break;
	case 378: __asm__ volatile("# ilv 378"); break;
	case 379: __asm__ volatile("# ilv 379"); break;
	case 380: __asm__ volatile("# ilv 380"); break;
	case 381: __asm__ volatile("# ilv 381"); break;
	case 382: __asm__ volatile("# ilv 382"); break;
	case 383: __asm__ volatile("# ilv 383"); break;
	case 384: __asm__ volatile("# ilv 384"); break;
	case 385: __asm__ volatile("# ilv 385"); break;
	case 386: __asm__ volatile("# ilv 386"); break;
	case 387: __asm__ volatile("# ilv 387"); break;
	case 388: __asm__ volatile("# ilv 388"); break;
	case 389: __asm__ volatile("# ilv 389"); break;
	case 390: __asm__ volatile("# ilv 390"); break;
	case 391: __asm__ volatile("# ilv 391"); break;
	case 392: __asm__ volatile("# ilv 392"); break;
	case 393: __asm__ volatile("# ilv 393"); break;
	case 394: __asm__ volatile("# ilv 394"); break;
	case 395: __asm__ volatile("# ilv 395"); break;
	case 396: __asm__ volatile("# ilv 396"); break;
	case 397: __asm__ volatile("# ilv 397"); break;
	case 398: __asm__ volatile("# ilv 398"); break;
	case 399: __asm__ volatile("# ilv 399"); break;
	case 400: __asm__ volatile("# ilv 400"); break;
	case 401: __asm__ volatile("# ilv 401"); break;
	case 402: __asm__ volatile("# ilv 402"); break;
	case 403: __asm__ volatile("# ilv 403"); break;
	case 404: __asm__ volatile("# ilv 404"); break;
	case 405: __asm__ volatile("# ilv 405"); break;
	case 406: __asm__ volatile("# ilv 406"); break;
	case 407: __asm__ volatile("# ilv 407"); break;
	case 408: __asm__ volatile("# ilv 408"); break;
	case 409: __asm__ volatile("# ilv 409"); break;
	case 410: __asm__ volatile("# ilv 410"); break;
	case 411: __asm__ volatile("# ilv 411"); break;
	case 412: __asm__ volatile("# ilv 412"); break;
	case 413: __asm__ volatile("# ilv 413"); break;
	case 414: __asm__ volatile("# ilv 414"); break;
	case 415: __asm__ volatile("# ilv 415"); break;
	case 416: __asm__ volatile("# ilv 416"); break;
	case 417: __asm__ volatile("# ilv 417"); break;
	case 418: __asm__ volatile("# ilv 418"); break;
	case 419: __asm__ volatile("# ilv 419"); break;
	case 420: __asm__ volatile("# ilv 420"); break;
	case 421: __asm__ volatile("# ilv 421"); break;
	case 422: __asm__ volatile("# ilv 422"); break;
	case 423: __asm__ volatile("# ilv 423"); break;
	case 424: __asm__ volatile("# ilv 424"); break;
	case 425: __asm__ volatile("# ilv 425"); break;
	case 426: __asm__ volatile("# ilv 426"); break;
	case 427: __asm__ volatile("# ilv 427"); break;
	case 428: __asm__ volatile("# ilv 428"); break;
	case 429: __asm__ volatile("# ilv 429"); break;
	case 430: __asm__ volatile("# ilv 430"); break;
	case 431: __asm__ volatile("# ilv 431"); break;
	case 432: __asm__ volatile("# ilv 432"); break;
	case 433: __asm__ volatile("# ilv 433"); break;
	case 434: __asm__ volatile("# ilv 434"); break;
	case 435: __asm__ volatile("# ilv 435"); break;
	case 436: __asm__ volatile("# ilv 436"); break;
	case 437: __asm__ volatile("# ilv 437"); break;
	case 438: __asm__ volatile("# ilv 438"); break;
	case 439: __asm__ volatile("# ilv 439"); break;
	case 440: __asm__ volatile("# ilv 440"); break;
	case 441: __asm__ volatile("# ilv 441"); break;
	case 442: __asm__ volatile("# ilv 442"); break;
	case 443: __asm__ volatile("# ilv 443"); break;
	case 444: __asm__ volatile("# ilv 444"); break;
	case 445: __asm__ volatile("# ilv 445"); break;
	case 446: __asm__ volatile("# ilv 446"); break;
	case 447: __asm__ volatile("# ilv 447"); break;
	case 448: __asm__ volatile("# ilv 448"); break;
	case 449: __asm__ volatile("# ilv 449"); break;
	case 450: __asm__ volatile("# ilv 450"); break;
	case 451: __asm__ volatile("# ilv 451"); break;
	case 452: __asm__ volatile("# ilv 452"); break;
	case 453: __asm__ volatile("# ilv 453"); break;
	case 454: __asm__ volatile("# ilv 454"); break;
	case 455: __asm__ volatile("# ilv 455"); break;
	case 456: __asm__ volatile("# ilv 456"); break;
	case 457: __asm__ volatile("# ilv 457"); break;
	case 458: __asm__ volatile("# ilv 458"); break;
	case 459: __asm__ volatile("# ilv 459"); break;
	case 460: __asm__ volatile("# ilv 460"); break;
	case 461: __asm__ volatile("# ilv 461"); break;
	case 462: __asm__ volatile("# ilv 462"); break;
	case 463: __asm__ volatile("# ilv 463"); break;
	case 464: __asm__ volatile("# ilv 464"); break;
	case 465: __asm__ volatile("# ilv 465"); break;
	case 466: __asm__ volatile("# ilv 466"); break;
	case 467: __asm__ volatile("# ilv 467"); break;
	case 468: __asm__ volatile("# ilv 468"); break;
	case 469: __asm__ volatile("# ilv 469"); break;
	case 470: __asm__ volatile("# ilv 470"); break;
	case 471: __asm__ volatile("# ilv 471"); break;
	case 472: __asm__ volatile("# ilv 472"); break;
	case 473: __asm__ volatile("# ilv 473"); break;
	case 474: __asm__ volatile("# ilv 474"); break;
	case 475: __asm__ volatile("# ilv 475"); break;
	case 476: __asm__ volatile("# ilv 476"); break;
	case 477: __asm__ volatile("# ilv 477"); break;
	case 478: __asm__ volatile("# ilv 478"); break;
	case 479: __asm__ volatile("# ilv 479"); break;
	case 480: __asm__ volatile("# ilv 480"); break;
	case 481: __asm__ volatile("# ilv 481"); break;
	case 482: __asm__ volatile("# ilv 482"); break;
	case 483: __asm__ volatile("# ilv 483"); break;
	case 484: __asm__ volatile("# ilv 484"); break;
	case 485: __asm__ volatile("# ilv 485"); break;
	case 486: __asm__ volatile("# ilv 486"); break;
	case 487: __asm__ volatile("# ilv 487"); break;
	case 488: __asm__ volatile("# ilv 488"); break;
	case 489: __asm__ volatile("# ilv 489"); break;
	case 490: __asm__ volatile("# ilv 490"); break;
	case 491: __asm__ volatile("# ilv 491"); break;
	case 492: __asm__ volatile("# ilv 492"); break;
	case 493: __asm__ volatile("# ilv 493"); break;
	case 494: __asm__ volatile("# ilv 494"); break;
	case 495: __asm__ volatile("# ilv 495"); break;
	case 496: __asm__ volatile("# ilv 496"); break;
	case 497: __asm__ volatile("# ilv 497"); break;
	case 498: __asm__ volatile("# ilv 498"); break;
	case 499: __asm__ volatile("# ilv 499"); break;
	case 500: __asm__ volatile("# ilv 500"); break;
	case 501: __asm__ volatile("# ilv 501"); break;
	case 502: __asm__ volatile("# ilv 502"); break;
	case 503: __asm__ volatile("# ilv 503"); break;
	case 504: __asm__ volatile("# ilv 504"); break;
	case 505: __asm__ volatile("# ilv 505"); break;
	case 506: __asm__ volatile("# ilv 506"); break;
	case 507: __asm__ volatile("# ilv 507"); break;
	case 508: __asm__ volatile("# ilv 508"); break;
	case 509: __asm__ volatile("# ilv 509"); break;
	case 510: __asm__ volatile("# ilv 510"); break;
	case 511: __asm__ volatile("# ilv 511"); break;
	}
}
#else
static inline __sched_notsan void ilv_sink(unsigned h)
{
	(void)h;
}
#endif

/* One interleaving edge h seen: count it, fold it into the run's hash and
 * show it to the engine. */
static __sched_notsan inline void ilv_note(unsigned h)
{
	h ^= h >> 15;
	h %= ILV_EDGES;
	if (!ilv_hit[h]) {
		ilv_hit[h] = 1;
		ilv_nseen++;
	}
	ilv_hash = (ilv_hash ^ h) * 0x100000001b3ULL;
	ilv_sink(h);
}

__sched_notsan __attribute__((noinline)) void ilv_edge(unsigned prev_site, unsigned site,
							bool switched)
{
	unsigned h = (prev_site * 0x9E3779B1u) ^ (site * 0x85EBCA77u) ^ (switched ? 0xC2B2AE3Du : 0);

	ilv_note(h);
}

__sched_notsan __attribute__((noinline)) void ilv_pair(unsigned site, unsigned parked_site)
{
	unsigned h = (site * 0x27D4EB2Fu) ^ (parked_site * 0x165667B1u) ^ 0x5BD1E995u;

	ilv_note(h);
}
