# kpatch/kpatch.mk: included by the top-level Makefile. `make install` of the runtime
# manager, its systemd units, the man pages of every tool and the bash completions.
KPATCH_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
SBINDIR		?= $(PREFIX)/sbin
MANDIR		?= $(PREFIX)/share/man
SYSTEMDUNITDIR	?= $(PREFIX)/lib/systemd/system
BASHCOMPDIR	?= $(PREFIX)/share/bash-completion/completions

install: install-kpatch
.PHONY: install-kpatch
install-kpatch:
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8
	install -m 755 $(KPATCH_DIR)/kpatch $(DESTDIR)$(SBINDIR)/kpatch
	for u in kpatch.service kpatch@.service; do \
		sed 's|@SBINDIR@|$(SBINDIR)|g' $(KPATCH_DIR)/$$u > $(DESTDIR)$(SYSTEMDUNITDIR)/$$u && \
		chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/$$u || exit 1; done
	install -m 644 man/kpatch-build.1 man/create-diff-object.1 man/klp-convert.1 \
		$(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/kpatch.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 644 $(KPATCH_DIR)/completion/kpatch $(KPATCH_DIR)/completion/kpatch-build \
		$(DESTDIR)$(BASHCOMPDIR)/
