#include "kernel-stubs.h"

extern void log_str(const char *s);

void greet(int lang)
{
	if (lang == 2)
		log_str("hallo");
	else if (lang)
		log_str("bonjour");
	else
		log_str("hello");
	log_str("[lang]");
	log_str("[done]");
}

void farewell(int lang)
{
	log_str("[done]");
	log_str("[lang]");
	if (lang)
		log_str("au revoir");
	else
		log_str("goodbye");
}
