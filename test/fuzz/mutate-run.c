// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz smoke test for create-diff-object: N deterministic mutations of a
 * seed object (bit flips, byte runs, header fields, truncation), each run
 * through the differ as PATCHED against the unmutated ORIG. Any exit other
 * than 0-3 (a crash, a sanitizer report, a hang) is a failure; the input
 * is kept for reproduction.
 *
 * usage: mutate-run CDO ORIG.o SYMTAB WORKDIR ITERATIONS [SEED]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		exit(2);
	}
	buf = malloc(st.st_size);
	if (!buf || read(fd, buf, st.st_size) != st.st_size) {
		perror(path);
		exit(2);
	}
	close(fd);
	*len = st.st_size;
	return buf;
}

/* One mutation; favours the ELF header and section/symbol tables. */
static size_t mutate(unsigned char *b, size_t len)
{
	unsigned int kind = next() % 6, i, n;
	size_t at;

	switch (kind) {
	case 0:		/* flip bits anywhere */
		for (n = 1 + next() % 8, i = 0; i < n; i++)
			b[next() % len] ^= 1u << (next() % 8);
		break;
	case 1:		/* ELF header field */
		b[next() % 64] = next();
		break;
	case 2:		/* a run of random bytes */
		at = next() % len;
		for (n = 1 + next() % 32, i = 0; i < n && at + i < len; i++)
			b[at + i] = next();
		break;
	case 3:		/* truncate */
		return next() % len;
	case 4:		/* interesting values in a 4/8-byte word */
		at = (next() % len) & ~3ul;
		if (at + 8 <= len) {
			static const uint64_t vals[] = { 0, 1, 0xff, 0xffff,
				0x7fffffff, 0xffffffff, ~0ull, 0x8000000000000000ull };
			uint64_t v = vals[next() % 8];

			memcpy(b + at, &v, (next() & 1) ? 8 : 4);
		}
		break;
	default:	/* section header table entries */
		{
			uint64_t shoff;

			memcpy(&shoff, b + 0x28, 8);
			if (shoff < len) {
				at = shoff + next() % (len - shoff);
				b[at] = next();
			}
		}
	}
	return len;
}

/*
 * The differ's exit status (128 + the signal that killed it; 255 when it ran
 * longer than TIMEOUT seconds and was killed). SIGCHLD is blocked in main()
 * and waited for here: the run returns as soon as the differ exits (a poll
 * every 10 ms added ~5 ms of wall time to each of the thousands of runs).
 * The differ itself runs with no signal blocked.
 */
static int run(char *const argv[], unsigned int timeout)
{
	struct timespec limit = { .tv_sec = timeout }, now = { 0 };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t chld, none;
	pid_t pid;
	int status, fd, sig;

	sigemptyset(&none);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawn_file_actions_init(&fa);
	fd = open("/dev/null", O_WRONLY);
	posix_spawn_file_actions_adddup2(&fa, fd, 1);
	posix_spawn_file_actions_adddup2(&fa, fd, 2);
	if (posix_spawn(&pid, argv[0], &fa, &attr, argv, environ)) {
		perror(argv[0]);
		exit(2);
	}
	close(fd);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	/* (the only child: its SIGCHLD says it exited) */
	do
		sig = sigtimedwait(&chld, NULL, &limit);
	while (sig < 0 && errno == EINTR);
	if (sig < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		/* the kill's SIGCHLD, taken now: the next run waits for its own */
		sigtimedwait(&chld, NULL, &now);
		return 255;
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	unsigned char *seed, *buf;
	size_t len, mlen;
	unsigned long iters, i, bad = 0, codes[4] = { 0 };
	char in[4096], out[4096];
	sigset_t chld;

	if (argc < 6) {
		fprintf(stderr, "usage: mutate-run CDO ORIG.o SYMTAB WORKDIR ITERATIONS [SEED]\n");
		return 2;
	}
	/* run() waits for SIGCHLD with sigtimedwait: blocked, it stays pending */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	seed = slurp(argv[2], &len);
	buf = malloc(len);
	iters = strtoul(argv[5], NULL, 0);
	rng = argc > 6 ? strtoull(argv[6], NULL, 0) : 0x9e3779b97f4a7c15ull;
	snprintf(in, sizeof(in), "%s/mutant.o", argv[4]);
	snprintf(out, sizeof(out), "%s/out.o", argv[4]);
	for (i = 0; i < iters; i++) {
		char *args[] = { argv[1], argv[2], in, "vmlinux", argv[3],
				 "/dev/null", "fuzz", out, NULL };
		int fd, rc;

		memcpy(buf, seed, len);
		mlen = mutate(buf, len);
		if (next() % 4 == 0)
			mlen = mutate(buf, mlen ? mlen : 1);
		fd = open(in, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, buf, mlen) != (ssize_t)mlen) {
			perror(in);
			return 2;
		}
		close(fd);
		rc = run(args, 20);
		if (rc <= 3) {
			codes[rc]++;
			continue;
		}
		bad++;
		snprintf(out, sizeof(out), "%s/crash-%lu.o", argv[4], i);
		rename(in, out);
		fprintf(stderr, "fuzz: iteration %lu: exit %d, input kept as %s\n",
			i, rc, out);
		snprintf(out, sizeof(out), "%s/out.o", argv[4]);
	}
	printf("fuzz: %lu inputs: %lu written, %lu bad input, %lu refused, %lu unchanged, %lu failures\n",
	       iters, codes[0], codes[1], codes[2], codes[3], bad);
	return bad ? 1 : 0;
}
