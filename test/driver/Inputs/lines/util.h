#pragma once
#define BINS 64
