/* two levels, as the kernel's __PASTE: only ___PASTE pastes itself */
#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
