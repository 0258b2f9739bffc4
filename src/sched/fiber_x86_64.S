/* SPDX-License-Identifier: MIT */
/*
 * void mmfuzz_ctx_switch(void **save_sp, void *new_sp)
 * Saves the callee-saved registers on the current stack, stores the stack
 * pointer in *save_sp, loads new_sp and restores the registers saved there.
 *
 * void mmfuzz_ctx_trampoline(void)
 * First return target of a new fiber: calls r12(r13) and never returns.
 */
#if defined(__x86_64__)
	.text
	.globl	mmfuzz_ctx_switch
	.type	mmfuzz_ctx_switch, @function
mmfuzz_ctx_switch:
	.cfi_startproc
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.cfi_endproc
	.size	mmfuzz_ctx_switch, .-mmfuzz_ctx_switch

	.globl	mmfuzz_ctx_trampoline
	.type	mmfuzz_ctx_trampoline, @function
mmfuzz_ctx_trampoline:
	.cfi_startproc
	.cfi_undefined rip
	movq	%r13, %rdi
	callq	*%r12
	ud2
	.cfi_endproc
	.size	mmfuzz_ctx_trampoline, .-mmfuzz_ctx_trampoline
#endif
	.section .note.GNU-stack,"",@progbits
