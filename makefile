# OpenBench builds an engine with `make EXE=<name>` at the repository's root and runs
# `./<name> bench`, whose last line is "<nodes> nodes <nps> nps". This builds the UCI engine
# alone (no GUI) with the toolchain the client has (Rust 1.95 or newer, through cargo) and
# copies it to $(EXE).

EXE ?= kibitz-engine
CARGO ?= cargo

ifeq ($(OS),Windows_NT)
BUILT := target/release/kibitz-engine.exe
else
BUILT := target/release/kibitz-engine
endif

.PHONY: all clean

all:
	$(CARGO) rustc --release --locked -p kibitz-engine --bin kibitz-engine -- -C target-cpu=native
	cp $(BUILT) $(EXE)

clean:
	$(CARGO) clean -p kibitz-engine
