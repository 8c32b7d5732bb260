#!/usr/bin/env python3
"""The function-length check on made-up sources: it finds a long function (free, member,
constructor with an initializer list), and is not fooled by braces in comments, strings
or raw strings, by classes and namespaces, or by initializers."""
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from check_function_length import long_functions  # noqa: E402


def body(n):
    return ''.join(f'  int x{i} = {i};\n' for i in range(n))


def expect(found, names, what):
    got = [name for _, name, _ in found]
    if got != names:
        sys.exit(f'FAIL {what}: expected {names}, got {got}')


def main():
    expect(long_functions('int f() {\n' + body(10) + '}\n', 10), ['f'], 'a 12-line function')
    expect(long_functions('int f() {\n' + body(8) + '}\n', 10), [], 'a 10-line function')
    src = ('namespace a {\nclass S {\n public:\n  S(int v) : v_(v), w_{v} {\n' + body(12) +
           '  }\n  int v_, w_;\n};\n}  // namespace a\n')
    expect(long_functions(src, 10), ['S'], 'a constructor inside a class inside a namespace')
    src = 'int S::run() const {\n  const char* s = "}}}";\n  // }\n  /* { */\n' + body(8) + '}\n'
    expect(long_functions(src, 10), ['S::run'], 'braces in strings and comments')
    src = 'const char* k = R"(\n}\n}\n)";\nvoid g() {\n' + body(3) + '}\n'
    expect(long_functions(src, 5), [], 'a raw string with braces')
    src = 'constexpr int table[] = {\n' + '  1,\n' * 20 + '};\nstruct P {\n' + body(20) + '};\n'
    expect(long_functions(src, 10), [], 'a table and a struct are not functions')
    src = 'void h() {\n  auto l = [] {\n' + body(10) + '  };\n}\n'
    expect(long_functions(src, 10), ['h'], 'a lambda counts in its function')
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / 'area').mkdir()
        (root / 'area' / 'x.cpp').write_text('void big() {\n' + body(90) + '}\n')
        allowed = root / 'allowed.txt'
        allowed.write_text('area/x.cpp: big\narea/x.cpp: gone\n')
        run = subprocess.run([sys.executable, str(HERE / 'check_function_length.py'), str(root),
                              '--allowed', str(allowed)], capture_output=True, text=True)
        if run.returncode != 1 or 'gone' not in run.stdout or 'big is' in run.stdout:
            sys.exit(f'FAIL the allowed list: rc {run.returncode}, {run.stdout!r}')
        allowed.write_text('')
        run = subprocess.run([sys.executable, str(HERE / 'check_function_length.py'), str(root),
                              '--allowed', str(allowed)], capture_output=True, text=True)
        if run.returncode != 1 or 'area/x.cpp:1: big is 92 lines' not in run.stdout:
            sys.exit(f'FAIL an unlisted long function: rc {run.returncode}, {run.stdout!r}')
    print('ok')


if __name__ == '__main__':
    main()
