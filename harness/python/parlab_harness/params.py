"""Typed access to --param key=value, with the C++ harness's rules
(harness/src/params.cpp): every failure names the key and quotes the value."""

import math
import re

_INTEGER = re.compile(r"-?[0-9]+")
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


class ParamError(ValueError):
    pass


def _bad(key, value, expected):
    raise ParamError(f"parameter '{key}': expected {expected}, got '{value}'")


class Params:
    def __init__(self, values=None):
        self._values = dict(values or {})

    def set(self, key, value):
        self._values[key] = value

    def values(self):
        return dict(self._values)

    def get_string(self, key, fallback=None):
        if key in self._values:
            return self._values[key]
        if fallback is None:
            raise ParamError(f"missing parameter '{key}'")
        return fallback

    def get_int(self, key, fallback=None):
        if key not in self._values and fallback is not None:
            return fallback
        value = self.get_string(key)
        text = value.strip(" \t\r\n")
        if not _INTEGER.fullmatch(text):
            _bad(key, value, "an integer")
        number = int(text)
        if not -(2**63) <= number < 2**63:
            _bad(key, value, "an integer in int64 range")
        return number

    def get_float(self, key, fallback=None):
        if key not in self._values and fallback is not None:
            return fallback
        value = self.get_string(key)
        try:
            number = float(value.strip(" \t\r\n"))
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            _bad(key, value, "a finite number")
        return number

    def get_bool(self, key, fallback=None):
        if key not in self._values and fallback is not None:
            return fallback
        value = self.get_string(key)
        text = value.strip(" \t\r\n")
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        _bad(key, value, "true or false")
